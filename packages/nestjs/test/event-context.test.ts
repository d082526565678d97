import {
  Catch,
  Controller,
  Injectable,
  Module,
  UseFilters,
  UseInterceptors,
  type CallHandler,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { PaymentEvent } from '@paymount/core';
import { tap, type Observable } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postJson } from '../../../tools/conformance/http';
import { OnPaymentEvent, PAYMENT_EVENT_CONTEXT_TYPE, PaymentsModule } from '../src';
import { startNestApp, type NestTestApp } from './support';

interface Interception {
  by: string;
  type: string;
  handler: string;
  event: PaymentEvent;
  outcome?: 'returned' | 'threw';
}

/** Every call an interceptor saw, in order; interceptors Nest creates itself cannot be fetched from the app. */
const intercepted: Interception[] = [];
const filtered: string[] = [];

/** Records the calls it wraps and how each ended, as a merchant's logging or tracing interceptor would. */
function recordingInterceptor(by: string): new () => NestInterceptor {
  @Injectable()
  class Recording implements NestInterceptor {
    intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
      const call: Interception = {
        by,
        type: context.getType(),
        handler: context.getHandler().name,
        event: context.getArgByIndex<PaymentEvent>(0),
      };
      intercepted.push(call);
      return next.handle().pipe(
        tap({ next: () => (call.outcome = 'returned'), error: () => (call.outcome = 'threw') }),
      );
    }
  }
  return Recording;
}

const ClassInterceptor = recordingInterceptor('class');
const MethodInterceptor = recordingInterceptor('method');
const ControllerInterceptor = recordingInterceptor('controller');
const GlobalInterceptor = recordingInterceptor('global');

class WarehouseOffline extends Error {}

/** Sees the handler's error and throws it on: the delivery must still fail, so the service retries it. */
@Catch(WarehouseOffline)
class WarehouseErrors implements ExceptionFilter {
  catch(error: WarehouseOffline): never {
    filtered.push(error.message);
    throw error;
  }
}

/** Fails the first delivery of each payment, as a handler whose dependency is briefly down would. */
@Injectable()
@UseInterceptors(ClassInterceptor)
@UseFilters(WarehouseErrors)
class Fulfilment {
  readonly shipped: string[] = [];
  private readonly failed = new Set<string>();

  @OnPaymentEvent('payment.succeeded')
  @UseInterceptors(MethodInterceptor)
  ship(event: PaymentEvent): void {
    const id = event.transactionId ?? '';
    if (!this.failed.has(id)) {
      this.failed.add(id);
      throw new WarehouseOffline(`warehouse offline for ${id}`);
    }
    this.shipped.push(id);
  }
}

class NewsletterDown extends Error {}

/**
 * Handles the error instead of throwing it on: the merchant decided this
 * failure must not cost a retry. Nest rethrows when a filter returns nothing,
 * so it returns a value.
 */
@Catch(NewsletterDown)
class IgnoreNewsletterDown implements ExceptionFilter {
  catch(error: NewsletterDown): { skipped: string } {
    filtered.push(error.message);
    return { skipped: error.message };
  }
}

@Injectable()
@UseFilters(IgnoreNewsletterDown)
class Newsletter {
  @OnPaymentEvent('payment.succeeded')
  announce(): void {
    throw new NewsletterDown('newsletter down');
  }
}

/** Nest's external context finds class-referenced enhancers only for providers: a controller gives instances. */
@Controller('ledger')
@UseInterceptors(new ControllerInterceptor())
class LedgerController {
  @OnPaymentEvent('*')
  record(event: PaymentEvent): string {
    return event.type;
  }
}

let fixture: AdapterFixture;
let app: NestTestApp;
let transactionId: string;

beforeAll(async () => {
  fixture = await startAdapterFixture();
  @Module({
    imports: [PaymentsModule.forRoot(fixture.options)],
    controllers: [LedgerController],
    providers: [Fulfilment, Newsletter, { provide: APP_INTERCEPTOR, useClass: GlobalInterceptor }],
  })
  class AppModule {}
  app = await startNestApp(AppModule);
  fixture.mountedAt(`${app.url}/payments`);
  const paid = await postJson(`${app.url}/payments/wallet/pay`, { orderId: 'order-1', token: fixture.sandbox.mintWalletToken() });
  expect(paid.json).toMatchObject({ status: 'succeeded' });
  transactionId = (paid.json as { transactionId: string }).transactionId;
  await fixture.sandbox.waitForDeliveries();
});
afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

const eventCalls = (by: string) =>
  intercepted.filter((call) => call.by === by && call.type === PAYMENT_EVENT_CONTEXT_TYPE).map(({ handler, event, outcome }) => ({
    handler,
    type: event.type,
    transactionId: event.transactionId,
    outcome,
  }));

it('a throwing @OnPaymentEvent method still fails the delivery, which the service retries and the handler then completes', () => {
  const [delivery] = fixture.sandbox.deliveries();
  expect(delivery?.payload['transactionId']).toBe(transactionId);
  expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
  expect(app.app.get(Fulfilment).shipped).toEqual([transactionId]);
});

it("the interceptors of the handler's class and method see each call with the sandbox's event, and how it ended", () => {
  const attempts = [
    { handler: 'ship', type: 'payment.succeeded', transactionId, outcome: 'threw' },
    { handler: 'ship', type: 'payment.succeeded', transactionId, outcome: 'returned' },
  ];
  expect(eventCalls('class')).toEqual(attempts);
  expect(eventCalls('method')).toEqual(attempts);
});

it('interceptors apply to handlers on controllers, and global ones see events beside HTTP requests, told apart by getType()', () => {
  // The ledger's catch-all runs after ship(), so only on the retried delivery.
  expect(eventCalls('controller')).toEqual([{ handler: 'record', type: 'payment.succeeded', transactionId, outcome: 'returned' }]);
  const global = eventCalls('global').map((call) => call.handler);
  expect(global.filter((handler) => handler !== 'announce')).toEqual(['ship', 'ship', 'record']);
  expect(global).toContain('announce');
  expect(intercepted.filter((call) => call.by === 'global' && call.type === 'http').length).toBeGreaterThan(0);
});

it("the handler class's exception filter sees the error it threw; one that returns instead of throwing ends the failure", () => {
  expect(filtered.filter((message) => message.startsWith('warehouse'))).toEqual([`warehouse offline for ${transactionId}`]);
  // The newsletter throws on every call, yet the retried delivery was answered 200 (first test).
  expect(filtered).toContain('newsletter down');
});
