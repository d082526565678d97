import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook, type PaymentEvent, type PaymentHandlersOptions, type SignedWebhook } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { ORDERS, webhookPayload } from '../conformance/fixtures';

/**
 * What the adapters' framework-specific tests share: the sandbox as the payment
 * service, handler options pointing at it, and a real HTTP server per app.
 */
export interface AdapterFixture {
  sandbox: Sandbox;
  /** Every event the handlers ran for, in order. */
  events: PaymentEvent[];
  /** Handler options against the sandbox; their notifyUrl follows `mountedAt`. */
  options: PaymentHandlersOptions;
  /** Where the payment routes of the app under test are served, once it listens. */
  mountedAt(url: string): void;
  /** A delivery signed exactly as the service signs one: a successful payment of `transactionId` unless `overrides` say otherwise. */
  delivery(transactionId: string, overrides?: Record<string, unknown>): SignedWebhook;
  close(): Promise<void>;
}

export async function startAdapterFixture(): Promise<AdapterFixture> {
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [50, 100] });
  const events: PaymentEvent[] = [];
  let routesUrl = '';
  return {
    sandbox,
    events,
    options: {
      client: { ...sandbox.clientOptions(), retry: { maxAttempts: 1 } },
      resolveOrder: (orderId) => ORDERS[orderId] ?? null,
      notifyUrl: () => `${routesUrl}/webhook`,
      wallet: { gatewayId: sandbox.gatewayId },
      webhook: { secret: sandbox.webhookSecret },
      on: { '*': (event) => void events.push(event) },
      // Tests of the default console logging build their options without this.
      logger: false,
    },
    mountedAt(url) {
      routesUrl = url;
    },
    delivery: (transactionId, overrides = {}) =>
      signWebhook({ payload: webhookPayload({ ...overrides, transactionId }), secret: sandbox.webhookSecret }),
    close: () => sandbox.close(),
  };
}

export interface Listening {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/** Serves a framework's request listener (an Express app, `koa.callback()`, Nest's Express instance) on 127.0.0.1, port 0. */
export async function listen(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
