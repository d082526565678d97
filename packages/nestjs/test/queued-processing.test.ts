import {
  Catch,
  Injectable,
  Module,
  UseFilters,
  UseInterceptors,
  type ArgumentsHost,
  type CallHandler,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { createWebhookQueue, jobIdOf, startWebhookWorkers, type WebhookQueue, type WebhookWorkers } from '@paymount/bullmq';
import { dedupeKeyOf, verifyWebhook, type PaymentEvent } from '@paymount/core';
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

const ATTEMPTS = 2;

/** What each filter saw: its context type, the event's transaction and the error. */
const filtered: Array<{ by: string; type: string; transactionId: string | undefined; message: string }> = [];

function seen(by: string, error: Error, host: ArgumentsHost): void {
  filtered.push({ by, type: host.getType(), transactionId: host.getArgByIndex<PaymentEvent>(0).transactionId, message: error.message });
}

class WarehouseDown extends Error {}

/** Sees the error and throws it on, as a merchant's reporting filter does: the job must still fail. */
@Catch(WarehouseDown)
class ReportWarehouseErrors implements ExceptionFilter {
  catch(error: WarehouseDown, host: ArgumentsHost): never {
    seen('report', error, host);
    throw error;
  }
}

class MailDown extends Error {}

/** Handles the error (returns a value): the merchant decided this failure costs no retry. */
@Catch(MailDown)
class SkipMailDown implements ExceptionFilter {
  catch(error: MailDown, host: ArgumentsHost): { skipped: string } {
    seen('skip', error, host);
    return { skipped: error.message };
  }
}

/** Releases the stock a closed (unpaid) checkout held: the warehouse is down. */
@Injectable()
@UseFilters(ReportWarehouseErrors)
class Stock {
  readonly runs: string[] = [];

  @OnPaymentEvent('payment.closed')
  release(event: PaymentEvent): void {
    this.runs.push(event.transactionId ?? '-');
    throw new WarehouseDown(`warehouse down for ${event.transactionId}`);
  }
}

@Injectable()
@UseFilters(SkipMailDown)
class Mailer {
  readonly runs: string[] = [];

  @OnPaymentEvent('payment.failed')
  tellShopper(event: PaymentEvent): void {
    this.runs.push(event.transactionId ?? '-');
    throw new MailDown(`mail down for ${event.transactionId}`);
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
  queue = createWebhookQueue({ connection: redis.url, name: 'nest', attempts: ATTEMPTS, backoffMs: 50 });
  const options = { ...fixture.options, webhook: { secret: fixture.sandbox.webhookSecret, processing: queue } };
  @Module({ imports: [PaymentsModule.forRoot(options)], providers: [OrderBook, Recording, Stock, Mailer] })
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

/** Delivers a signed event to the app's webhook route; resolves its dedupe key once the route queued it. */
async function deliver(transactionId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const { body, headers } = fixture.delivery(transactionId, overrides);
  expect(await postRaw(`${app.url}/payments/webhook`, body, headers)).toMatchObject({ status: 200, json: { queued: true } });
  return dedupeKeyOf(await verifyWebhook({ rawBody: body, headers, secret: fixture.sandbox.webhookSecret }));
}

it.skipIf(redisSkipped())(
  "a filter that rethrows sees the worker's failure in a payment-event context; the job is retried, then dead-lettered with the handler's error",
  async () => {
    const key = await deliver('txn_warehouse_down', { transactionStatus: 'C' });
    await expect.poll(() => queue.listFailed(), { timeout: 15_000 }).toEqual([
      expect.objectContaining({ id: jobIdOf(key), transactionId: 'txn_warehouse_down', attempts: ATTEMPTS, failedReason: 'warehouse down for txn_warehouse_down' }),
    ]);
    expect(app.app.get(Stock).runs).toEqual(Array<string>(ATTEMPTS).fill('txn_warehouse_down'));
    const report = { by: 'report', type: PAYMENT_EVENT_CONTEXT_TYPE, transactionId: 'txn_warehouse_down', message: 'warehouse down for txn_warehouse_down' };
    expect(filtered.filter((entry) => entry.by === 'report')).toEqual(Array<typeof report>(ATTEMPTS).fill(report));
  },
);

it.skipIf(redisSkipped())('a filter that returns a value ends the failure: the job completes on its first run, nothing is retried', async () => {
  const key = await deliver('txn_mail_down', { transactionStatus: 'F' });
  const job = await queue.bullQueue.getJob(jobIdOf(key));
  await expect.poll(() => job?.isCompleted(), { timeout: 15_000 }).toBe(true);
  expect(app.app.get(Mailer).runs).toEqual(['txn_mail_down']);
  expect(filtered.filter((entry) => entry.by === 'skip')).toEqual([
    { by: 'skip', type: PAYMENT_EVENT_CONTEXT_TYPE, transactionId: 'txn_mail_down', message: 'mail down for txn_mail_down' },
  ]);
  expect((await queue.bullQueue.getJob(jobIdOf(key)))?.attemptsMade).toBe(1);
  expect(await queue.listFailed()).toHaveLength(1);
});
