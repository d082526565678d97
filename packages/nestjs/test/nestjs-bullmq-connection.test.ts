import { BullModule, getQueueToken, getSharedConfigToken, InjectQueue, type BullRootModuleOptions } from '@nestjs/bullmq';
import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createWebhookQueue, startWebhookWorkers, webhookQueueConnection, type WebhookQueue } from '@paymount/bullmq';
import type { PaymentEvent } from '@paymount/core';
import type { ConnectionOptions, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postRaw } from '../../../tools/conformance/http';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { OnPaymentEvent, PaymentsModule } from '../src';
import { startNestApp } from './support';

const WEBHOOK_QUEUE = Symbol('webhook queue');

/** An @OnPaymentEvent method that hands on to the app's own @nestjs/bullmq queue, on the same connection. */
@Injectable()
class Receipts {
  constructor(@InjectQueue('receipts') private readonly receipts: Queue) {}

  @OnPaymentEvent('payment.succeeded')
  async send(event: PaymentEvent): Promise<void> {
    await this.receipts.add('receipt', { transactionId: event.transactionId }, { jobId: event.transactionId });
  }
}

/** The webhook queue built from the connection given to BullModule.forRoot, and closed once the app has shut down. */
@Module({
  providers: [
    {
      provide: WEBHOOK_QUEUE,
      inject: [getSharedConfigToken()],
      useFactory: (bull: BullRootModuleOptions) => createWebhookQueue({ ...webhookQueueConnection(bull.connection), name: 'nest-bullmq' }),
    },
  ],
  exports: [WEBHOOK_QUEUE],
})
class WebhookQueueModule implements OnApplicationShutdown {
  constructor(@Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}

describe.skipIf(redisSkipped())("a webhook queue on the connection of @nestjs/bullmq's BullModule.forRoot", () => {
  let redis: RedisServer;
  let fixture: AdapterFixture;
  let shared: Redis;

  beforeAll(async () => {
    redis = await startRedisServer();
    fixture = await startAdapterFixture();
    shared = new Redis(redis.url, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    await shared?.quit();
    await fixture?.close();
    await redis?.stop();
  });

  const connections: Array<[string, string, () => ConnectionOptions]> = [
    ['the app’s ioredis client', 'txn_client', () => shared],
    ['ioredis options', 'txn_options', () => ({ host: '127.0.0.1', port: redis.port })],
  ];

  it.each(connections)('given %s: the event queued by the route runs on the workers, and the app’s own queue works beside it', async (_, transactionId, connection) => {
    @Module({
      imports: [
        BullModule.forRoot({ connection: connection() }),
        BullModule.registerQueue({ name: 'receipts' }),
        PaymentsModule.forRootAsync({
          imports: [WebhookQueueModule],
          inject: [WEBHOOK_QUEUE],
          useFactory: (queue: WebhookQueue) => ({
            ...fixture.options,
            webhook: { secret: fixture.sandbox.webhookSecret, processing: queue },
            workers: (routes) => startWebhookWorkers(queue, { routes }),
          }),
        }),
      ],
      providers: [Receipts],
    })
    class AppModule {}
    const app = await startNestApp(AppModule);
    const receipts = app.app.get<Queue>(getQueueToken('receipts'));
    try {
      const { body, headers } = fixture.delivery(transactionId);
      expect(await postRaw(`${app.url}/payments/webhook`, body, headers)).toMatchObject({ status: 200, json: { queued: true } });
      await expect.poll(async () => (await receipts.getJob(transactionId))?.data, { timeout: 10_000 }).toEqual({ transactionId });
    } finally {
      await app.close();
    }
    // The queue duplicated the app's client: closing it left the client to the app.
    expect(shared.status).toBe('ready');
    expect(await shared.ping()).toBe('PONG');
  });
});
