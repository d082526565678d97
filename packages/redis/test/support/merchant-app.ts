import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paymentRouter } from '@paymount/express';
import type { Logger, PaymentEvent } from '@paymount/core';
import express from 'express';
import type { RedisOptions } from 'ioredis';
import { RedisIdempotencyStore } from '../../src';

/** What a merchant instance needs to know: the service's credentials and where Redis is. */
export interface MerchantAppConfig {
  sandbox: { url: string; apiKey: string; appId: string; merchantId: string; webhookSecret: string };
  redis: RedisOptions;
  keyPrefix: string;
}

export interface MerchantAppExtras {
  /** Where the routes and the store log; default nowhere. */
  logger?: Logger;
}

export interface MerchantApp {
  /** `http://127.0.0.1:<port>/payments` */
  routesUrl: string;
  store: RedisIdempotencyStore;
  close(): Promise<void>;
}

/**
 * One merchant app instance: Express with the payment router mounted at
 * /payments and the Redis store, exactly as a merchant deploys it on each of
 * several instances.
 */
export async function startMerchantApp(
  config: MerchantAppConfig,
  onEvent: (event: PaymentEvent) => void | Promise<void>,
  { logger }: MerchantAppExtras = {},
): Promise<MerchantApp> {
  const store = new RedisIdempotencyStore({
    connection: config.redis,
    keyPrefix: config.keyPrefix,
    ...(logger ? { logger } : {}),
  });
  const router = paymentRouter({
    client: {
      apiKey: config.sandbox.apiKey,
      baseUrl: config.sandbox.url,
      appId: config.sandbox.appId,
      merchantId: config.sandbox.merchantId,
      localDevelopment: true,
    },
    resolveOrder: () => null,
    webhook: { secret: config.sandbox.webhookSecret },
    store,
    on: { '*': onEvent },
    ...(logger ? { logger } : {}),
  });
  const app = express();
  app.use('/payments', router);
  const server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    routesUrl: `http://127.0.0.1:${port}/payments`,
    store,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
      await router.handlers.close();
      await store.close();
    },
  };
}
