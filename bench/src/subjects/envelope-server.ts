import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveHarness } from '../harness/child-side';

const SESSION_LIFETIME_MS = 30 * 60_000;

/**
 * The least a server can do to answer create-session: read the body, parse it,
 * and answer the success envelope. It is the upstream stub of the client and
 * route figures and the bare baseline of the sandbox figure.
 */
serveHarness(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let request: { transactionRequestId?: unknown };
      try {
        request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof request;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"E02","msg":"invalid JSON","traceId":"-","data":{}}');
        return;
      }
      const sessionId = randomUUID();
      const body = JSON.stringify({
        code: '0',
        msg: 'success',
        traceId: randomUUID(),
        data: {
          checkoutUrl: `http://127.0.0.1/checkout/${sessionId}`,
          expiresAt: new Date(Date.now() + SESSION_LIFETIME_MS).toISOString(),
          sessionId,
          transactionRequestId: request.transactionRequestId,
        },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { ready: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } };
});
