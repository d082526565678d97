import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OrderStore } from '../../../../tests/readmes/context/orders';

export interface OrderService {
  /** `http://127.0.0.1:<port>`: the test app's `TEST_ORDERS_URL`. */
  url: string;
  orders: OrderStore;
  close(): Promise<void>;
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/**
 * The merchant's order store the README's code calls (`./orders` of the test
 * app), kept here in the test process: the tests seed orders and read what
 * the app's webhook handlers did to them, whichever runtime ran the handler.
 */
export async function startOrderService(): Promise<OrderService> {
  const orders = new OrderStore();
  const server: Server = createServer((req, res) => {
    const answer = async (): Promise<unknown> => {
      // undefined: no such order or route (404); null: done, nothing to say.
      const [, kind, id, action] = (req.url ?? '').split('/').map(decodeURIComponent);
      const body = req.method === 'POST' ? await jsonBody(req) : {};
      if (kind === 'orders' && id && action === undefined) return orders.find(id);
      if (kind === 'orders' && id && action === 'paid') await orders.markPaid(id, String(body['transactionId']));
      else if (kind === 'orders' && id && action === 'failed') await orders.markFailedUnlessPaid(id);
      else if (kind === 'refunds') {
        await orders.markRefunded(String(body['paymentTransactionId']), String(body['refundTransactionId']), body['amount'] as { orderAmount?: number });
      } else return undefined;
      return null;
    };
    answer().then(
      (result) => {
        res.writeHead(result === undefined ? 404 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result ?? null));
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      },
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    orders,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
