import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type IdempotencyStore, type Logger, type MerchantOrder, type OrderAttemptStore, type PaymentEventHandler, type PaymentRoutes, type PaymentTelemetry } from '@paymount/core';
import { paymentRouter } from '@paymount/express';
import { createPostgresStores, fromPg } from '@paymount/postgres';
import { createRedisStores } from '@paymount/redis';
import express from 'express';
import { createWebhookQueue, startWebhookWorkers, type WebhookQueue, type WebhookWorkers, type WebhookWorkersOptions } from '../../src';
import { freePort } from '../../../../tools/free-port';
import { testPool } from '../../../../tools/postgres-pool';

/** What one merchant process needs to know; JSON, so a forked process gets it through its environment. */
export interface QueuedAppConfig {
  /** The client's options: the sandbox's, plain data. */
  client: { apiKey: string; baseUrl: string; appId: string; merchantId: string; localDevelopment: true };
  webhookSecret: string;
  /** The routes' webhook secrets in place of `webhookSecret`: several during a rotation, the first current. */
  webhookSecrets?: string[];
  /** The Redis of the queue, and of the stores unless `postgresUrl` is set. */
  redisUrl: string;
  /** The queue's Redis when it is not the stores' (a Redis of its own, or stores in PostgreSQL). */
  queueRedisUrl?: string;
  /** Keep the stores in this PostgreSQL database (@paymount/postgres, default tables: one database per test) instead of Redis. */
  postgresUrl?: string;
  /** The stores' key prefix and the queue's name: one test's own. */
  namespace: string;
  /** The queue's BullMQ key prefix, when not the default. */
  queuePrefix?: string;
  /** Serve the routes over HTTP (an app instance); false for a worker-only process. */
  serve: boolean;
  /** Run workers in this process, with these settings; undefined for none (or start them later: QueuedApp.startWorkers). */
  workers?: Omit<WebhookWorkersOptions, 'routes'>;
  processingTtlMs?: number;
  attempts?: number;
  backoffMs?: number;
  /** The routes ask the service to deliver webhooks to this app's own /webhook (a port chosen up front). */
  selfNotify?: boolean;
  /** False: serve without waiting for the queue's Redis (an app started while it is down). Default true. */
  awaitQueue?: boolean;
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
  /** Starts workers in this process on the app's routes (once: an app has one set of workers). */
  startWorkers(settings: Omit<WebhookWorkersOptions, 'routes'>): WebhookWorkers;
  reconcile(): ReturnType<PaymentRoutes['reconcile']>;
  paymentRoutes: PaymentRoutes;
  close(): Promise<void>;
}

interface Stores {
  idempotency: IdempotencyStore;
  orders: OrderAttemptStore;
  ready(): Promise<unknown>;
  close(): Promise<void>;
}

function openStores(config: QueuedAppConfig, logger: Logger): Stores {
  if (config.postgresUrl !== undefined) {
    const pool = testPool(config.postgresUrl);
    const { idempotency, orders } = createPostgresStores(fromPg(pool), { logger });
    return { idempotency, orders, ready: async () => {}, close: () => pool.end() };
  }
  const stores = createRedisStores({ connection: config.redisUrl, keyPrefix: `${config.namespace}:`, logger });
  return {
    idempotency: stores.idempotency,
    orders: stores.orders,
    ready: async () => (stores.client.status === 'ready' ? undefined : once(stores.client, 'ready')),
    close: () => stores.close(),
  };
}

function resolveOrder(orderId: string): MerchantOrder | null {
  return { referenceOrderId: orderId, amount: { orderAmount: 2500, priceCurrency: 'USD' }, description: 'A queued-webhook test order' };
}

/**
 * A merchant app as a merchant deploys it with queued processing: Express
 * with the payment router, the stores (Redis, or PostgreSQL), the BullMQ
 * queue as `webhook.processing`, and (when asked) workers running the
 * router's handlers. An app and a worker process are the same code with
 * other flags.
 */
export async function startQueuedApp(
  config: QueuedAppConfig,
  onEvent: PaymentEventHandler<'*'>,
  extras: { logger?: Logger; telemetry?: PaymentTelemetry } = {},
): Promise<QueuedApp> {
  const stores = openStores(config, extras.logger ?? silentLogger);
  const port = config.selfNotify === true ? await freePort() : 0;
  const queue = createWebhookQueue({
    connection: config.queueRedisUrl ?? config.redisUrl,
    name: config.namespace,
    ...(config.queuePrefix === undefined ? {} : { prefix: config.queuePrefix }),
    ...(config.attempts === undefined ? {} : { attempts: config.attempts }),
    ...(config.backoffMs === undefined ? {} : { backoffMs: config.backoffMs }),
    ...(extras.logger ? { logger: extras.logger } : {}),
  });
  const router = paymentRouter({
    client: config.client,
    resolveOrder,
    ...(config.selfNotify === true ? { notifyUrl: `http://127.0.0.1:${port}/payments/webhook` } : {}),
    webhook: {
      ...(config.webhookSecrets === undefined ? { secret: config.webhookSecret } : { secrets: config.webhookSecrets }),
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
  await Promise.all([config.awaitQueue === false ? undefined : queue.bullQueue.waitUntilReady(), stores.ready()]);
  let workers: WebhookWorkers | undefined;
  const startWorkers = (settings: Omit<WebhookWorkersOptions, 'routes'>) => {
    if (workers) throw new Error('this app already runs workers');
    workers = startWebhookWorkers(queue, { ...settings, routes: router.paymentRoutes });
    return workers;
  };
  if (config.workers) startWorkers(config.workers);

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
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    routesUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments`;
  }
  return {
    routesUrl,
    queue,
    get workers() {
      return workers;
    },
    answered,
    startWorkers,
    reconcile: () => router.paymentRoutes.reconcile({ olderThanMs: 0 }),
    paymentRoutes: router.paymentRoutes,
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
