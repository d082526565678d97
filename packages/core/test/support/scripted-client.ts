import { afterEach } from 'vitest';
import { createPaymentClient, type PaymentClientOptions } from '../../src';
import { clientOptions } from './fixtures';
import { startServiceServer, type Responder } from './service-server';

interface Closable {
  close(): Promise<void>;
}

/**
 * Per test: a scripted service and a client pointed at it (waits between
 * attempts recorded, not slept), both closed after the test, client first.
 */
export function scriptedClients() {
  const open: Closable[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });
  return {
    async setUp(respond: Responder, overrides: Partial<PaymentClientOptions> = {}) {
      const server = await startServiceServer(respond);
      const delays: number[] = [];
      open.push(server);
      const client = createPaymentClient(clientOptions(server.url, { sleep: async (ms) => void delays.push(ms), ...overrides }));
      open.push(client);
      return { server, client, delays };
    },
    /** Closes `item` after the test too. */
    adopt<T extends Closable>(item: T): T {
      open.push(item);
      return item;
    },
  };
}
