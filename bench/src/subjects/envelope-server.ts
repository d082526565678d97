import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CREATE_SESSION_PATH, DIRECT_SALE_PATH, REFUND_PATH, SETTLED_PAYMENT_ID, TRANSACTION_QUERY_PATH } from '../fixtures/shop';
import { serveHarness } from '../harness/child-side';

const SESSION_LIFETIME_MS = 30 * 60_000;

type Request = Record<string, unknown>;

/** The payment every refund and query names: settled, in the currency of the shop's orders. */
const PAYMENT = { transactionId: SETTLED_PAYMENT_ID, amount: { priceCurrency: 'USD', orderAmount: 1000, totalAmount: 1000 } };

/** The `data` of each endpoint's success envelope, shaped as docs/service-contract.md and the sandbox answer it. */
const answers: Record<string, (request: Request) => Record<string, unknown>> = {
  [CREATE_SESSION_PATH](request) {
    const sessionId = randomUUID();
    return {
      checkoutUrl: `http://127.0.0.1/checkout/${sessionId}`,
      expiresAt: new Date(Date.now() + SESSION_LIFETIME_MS).toISOString(),
      sessionId,
      transactionRequestId: request.transactionRequestId,
    };
  },
  [DIRECT_SALE_PATH](request) {
    return { transactionId: randomUUID(), transactionRequestId: request.transactionRequestId, transactionStatus: 'S' };
  },
  [REFUND_PATH](request) {
    const now = new Date().toISOString();
    return {
      transactionId: randomUUID(),
      transactionRequestId: request.transactionRequestId,
      originalTransactionId: request.originalTransactionId ?? PAYMENT.transactionId,
      transactionType: 'REFUND',
      amount: request.amount ?? PAYMENT.amount,
      transactionStatus: 'S',
      createTime: now,
      completeTime: now,
    };
  },
  [TRANSACTION_QUERY_PATH](request) {
    const now = new Date().toISOString();
    return {
      transactionId: request.transactionId ?? PAYMENT.transactionId,
      transactionRequestId: request.transactionRequestId ?? 'bench-payment-request',
      referenceOrderId: 'order-0001',
      transactionType: 'SALE',
      amount: PAYMENT.amount,
      transactionStatus: 'S',
      createTime: now,
      completeTime: now,
    };
  },
};

function answer(res: ServerResponse, status: number, envelope: object): void {
  const body = JSON.stringify(envelope);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

/**
 * The least a server can do to answer create-session, a refund or a
 * transaction query: read the body (or the query string), parse it, and answer
 * the success envelope. It is the upstream stub of the client and route
 * figures and the bare baseline of the sandbox figure.
 */
serveHarness(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const [path = '', query] = (req.url ?? '').split('?', 2);
      const data = answers[path];
      if (data === undefined) return answer(res, 404, { code: 'E01', msg: `no such endpoint ${path}`, traceId: '-' });
      let request: Request;
      try {
        request = req.method === 'GET' ? Object.fromEntries(new URLSearchParams(query)) : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Request);
      } catch {
        return answer(res, 400, { code: 'E02', msg: 'invalid JSON', traceId: '-', data: {} });
      }
      answer(res, 200, { code: '0', msg: 'success', traceId: randomUUID(), data: data(request) });
    });
  });
  // Far beyond a call's gap even under valgrind: the counted client loop (subjects/call-loop.ts), slowed
  // there on a busy machine, left a socket idle past 30 s, the stub closed it as the client reused it,
  // and the count stopped on UND_ERR_SOCKET. Busy sockets of the timed figures never idle that long.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { ready: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } };
});
