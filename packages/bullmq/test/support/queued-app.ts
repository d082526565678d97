import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type Logger, type MerchantOrder, type PaymentEvent, type PaymentTelemetry } from '@paymount/core';
import { paymentRouter } from '@paymount/express';
import { createRedisStores } from '@paymount/redis';
import express from 'express';
import { createWebhookQueue, startWebhookWorkers, type WebhookQueue, type WebhookWorkers, type WebhookWorkersOptions } from '../../src';

/** What one merchant process needs to know; JSON, so a forked process gets it through its environment. */
export interface QueuedAppConfig {
  /** The client's options: the sandbox's, plain data. */
  client: { apiKey: string; baseUrl: string; appId: string; merchantId: string; localDevelopment: true };
  webhookSecret: string;
  redisUrl: string;
  /** The stores' key prefix and the queue's name: one test's own. */
  namespace: string;
  /** Serve the routes over HTTP (an app instance); false for a worker-only process. */
  serve: boolean;
  /** Run workers in this process, with these settings; undefined for none. */
  workers?: Omit<WebhookWorkersOptions, 'routes'>;
  processingTtlMs?: number;
  attempts?: number;
  backoffMs?: number;
}

export interface AnsweredDelivery {
  status: number;
  ms: number;
}

export interface QueuedApp {
  /** `http://127.0.0.1:<port>/payments`, when serving. */
  routesUrl: string | undefined;
  queue: WebhookQueue;
  workers: WebhookWorkers | undefined;
  /** Every POST /webhook this app answered, with the time it took. */
  answered: AnsweredDelivery[];
  reconcile(): Promise<unknown>;
  close(): Promise<void>;
}

function resolveOrder(orderId: string): MerchantOrder | null {
  return { referenceOrderId: orderId, amount: { orderAmount: 2500, priceCurrency: 'USD' }, description: 'A queued-webhook test order' };
}

/**
 * A merchant app as a merchant deploys it with queued processing: Express
 * with the payment router, both Redis stores, the BullMQ queue as
 * `webhook.processing`, and (when asked) workers running the router's
 * handlers. An app and a worker process are the same code with other flags.
 */
export async function startQueuedApp(
  config: QueuedAppConfig,
  onEvent: (event: PaymentEvent) => unknown,
  extras: { logger?: Logger; telemetry?: PaymentTelemetry } = {},
): Promise<QueuedApp> {
  const stores = createRedisStores({ connection: config.redisUrl, keyPrefix: `${config.namespace}:`, logger: extras.logger ?? silentLogger });
  const queue = createWebhookQueue({
    connection: config.redisUrl,
    name: config.namespace,
    ...(config.attempts === undefined ? {} : { attempts: config.attempts }),
    ...(config.backoffMs === undefined ? {} : { backoffMs: config.backoffMs }),
    ...(extras.logger ? { logger: extras.logger } : {}),
  });
  const router = paymentRouter({
    client: config.client,
    resolveOrder,
    webhook: {
      secret: config.webhookSecret,
      processing: queue,
      ...(config.processingTtlMs === undefined ? {} : { processingTtlMs: config.processingTtlMs }),
    },
    store: stores.idempotency,
    orders: { store: stores.orders },
    on: { '*': onEvent },
    logger: extras.logger ?? false,
    telemetry: extras.telemetry ?? false,
  });
  // Serving before both connections are up would answer the first deliveries 503.
  await Promise.all([queue.bullQueue.waitUntilReady(), stores.client.status === 'ready' ? undefined : once(stores.client, 'ready')]);
  const workers = config.workers ? startWebhookWorkers(queue, { ...config.workers, routes: router.paymentRoutes }) : undefined;

  const answered: AnsweredDelivery[] = [];
  let server: ReturnType<typeof createServer> | undefined;
  let routesUrl: string | undefined;
  if (config.serve) {
    const app = express();
    app.use('/payments/webhook', (_req, res, next) => {
      const started = performance.now();
      res.on('finish', () => answered.push({ status: res.statusCode, ms: performance.now() - started }));
      next();
    });
    app.use('/payments', router);
    server = createServer(app);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    routesUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments`;
  }
  return {
    routesUrl,
    queue,
    workers,
    answered,
    reconcile: () => router.paymentRoutes.reconcile({ olderThanMs: 0 }),
    async close() {
      if (server) {
        server.closeAllConnections();
        server.close();
      }
      await workers?.close();
      await queue.close();
      await router.paymentRoutes.close();
      await stores.close();
    },
  };
}
