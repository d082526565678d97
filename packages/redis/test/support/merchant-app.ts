import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paymentRouter } from '@paymount/express';
import type { Logger, MerchantOrder, PaymentEvent } from '@paymount/core';
import express from 'express';
import type { RedisOptions } from 'ioredis';
import { createRedisStores, type RedisIdempotencyStore } from '../../src';

/** What a merchant instance needs to know: the service's credentials and where Redis is. */
export interface MerchantAppConfig {
  sandbox: { url: string; apiKey: string; appId: string; merchantId: string; webhookSecret: string };
  redis: RedisOptions;
  keyPrefix: string;
}

export interface MerchantAppExtras {
  /** Where the routes and the store log; default nowhere. */
  logger?: Logger;
  /** The routes' `webhook.processingTtlMs`; default theirs. */
  processingTtlMs?: number;
}

export interface MerchantApp {
  /** `http://127.0.0.1:<port>/payments` */
  routesUrl: string;
  /** The webhook dedupe store; the order attempt store shares its connection. */
  store: RedisIdempotencyStore;
  close(): Promise<void>;
}

/** The instances' shared catalogue: any `shared-order-…` id is an order of 12.50. */
function resolveOrder(orderId: string): MerchantOrder | null {
  if (!/^shared-order-[\w-]{1,19}$/.test(orderId)) return null;
  return { referenceOrderId: orderId, amount: { orderAmount: 1250, priceCurrency: 'USD' }, description: 'An order any instance may be asked to pay' };
}

/**
 * One merchant app instance: Express with the payment router mounted at
 * /payments and both Redis stores on one connection, exactly as a merchant
 * deploys it on each of several instances.
 */
export async function startMerchantApp(
  config: MerchantAppConfig,
  onEvent: (event: PaymentEvent) => void | Promise<void>,
  { logger, processingTtlMs }: MerchantAppExtras = {},
): Promise<MerchantApp> {
  const stores = createRedisStores({ connection: config.redis, keyPrefix: config.keyPrefix, ...(logger ? { logger } : {}) });
  // Served once Redis is connected, as a deploy's readiness check would have it: on a busy machine the connection came
  // seconds after the server listened, and until then the stores refuse (fail fast) and the routes answer 503.
  if (stores.client.status !== 'ready') await once(stores.client, 'ready');
  const router = paymentRouter({
    client: {
      apiKey: config.sandbox.apiKey,
      baseUrl: config.sandbox.url,
      appId: config.sandbox.appId,
      merchantId: config.sandbox.merchantId,
      localDevelopment: true,
    },
    resolveOrder,
    webhook: { secret: config.sandbox.webhookSecret, ...(processingTtlMs === undefined ? {} : { processingTtlMs }) },
    store: stores.idempotency,
    orders: { store: stores.orders },
    on: { '*': onEvent },
    // Handler failures are part of these scenarios: without a logger to read them, they stay off the console.
    logger: logger ?? false,
  });
  const app = express();
  app.use('/payments', router);
  const server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    routesUrl: `http://127.0.0.1:${port}/payments`,
    store: stores.idempotency,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
      await router.paymentRoutes.close();
      await stores.close();
    },
  };
}
