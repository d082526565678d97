import { Injectable, Module, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { createWebhookQueue, startWebhookWorkers, type WebhookQueue, type WebhookWorkers } from '@paymount/bullmq';
import type { PaymentEvent } from '@paymount/core';
import type { Observable } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postRaw } from '../../../tools/conformance/http';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { OnPaymentEvent, PAYMENT_EVENT_CONTEXT_TYPE, PaymentsModule, PaymentsService } from '../src';
import { startNestApp, type NestTestApp } from './support';

/** The context type and handler of every call the interceptor wrapped. */
const intercepted: Array<{ type: string; handler: string }> = [];

@Injectable()
class Recording implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    intercepted.push({ type: context.getType(), handler: context.getHandler().name });
    return next.handle();
  }
}

@Injectable()
@UseInterceptors(Recording)
class OrderBook {
  readonly paid: PaymentEvent[] = [];

  @OnPaymentEvent('payment.succeeded')
  markPaid(event: PaymentEvent): void {
    this.paid.push(event);
  }
}

let redis: RedisServer;
let fixture: AdapterFixture;
let queue: WebhookQueue;
let app: NestTestApp;
let workers: WebhookWorkers | undefined;

beforeAll(async () => {
  if (redisSkipped()) return;
  redis = await startRedisServer();
  fixture = await startAdapterFixture();
  queue = createWebhookQueue({ connection: redis.url, name: 'nest' });
  const options = { ...fixture.options, webhook: { secret: fixture.sandbox.webhookSecret, processing: queue } };
  @Module({ imports: [PaymentsModule.forRoot(options)], providers: [OrderBook, Recording] })
  class AppModule {}
  app = await startNestApp(AppModule);
});
afterAll(async () => {
  await workers?.close();
  await app?.close();
  await queue?.close();
  await fixture?.close();
  await redis?.stop();
});

it.skipIf(redisSkipped())('with webhook.processing, the route queues the event and @OnPaymentEvent runs on a worker, through its interceptors', async () => {
  const { body, headers } = fixture.delivery('txn_nest_queued');
  const answer = await postRaw(`${app.url}/payments/webhook`, body, headers);
  expect(answer).toMatchObject({ status: 200, json: { received: true, queued: true } });
  const book = app.app.get(OrderBook);
  expect(book.paid).toEqual([]);

  workers = startWebhookWorkers(queue, { routes: app.app.get(PaymentsService).paymentRoutes });
  await expect.poll(() => book.paid.length, { timeout: 10_000 }).toBe(1);
  expect(book.paid[0]).toMatchObject({ type: 'payment.succeeded', transactionId: 'txn_nest_queued' });
  expect(intercepted).toEqual([{ type: PAYMENT_EVENT_CONTEXT_TYPE, handler: 'markPaid' }]);
});
