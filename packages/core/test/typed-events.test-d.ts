import { describe, expectTypeOf, it } from 'vitest';
import {
  createPaymentRoutes,
  type OrderLookupContext,
  type PaymentClosedEvent,
  type PaymentEvent,
  type PaymentEventMap,
  type PaymentEventOf,
  type PaymentEventReason,
  type PaymentFailedEvent,
  type PaymentRoutes,
  type PaymentRoutesOptions,
  type PaymentSucceededEvent,
  type RefundFailedEvent,
  type RefundSucceededEvent,
  type UnknownPaymentEvent,
} from '../src';
import { PaymentEventRegistry } from '../src/entries/internal';

/** What an adapter hands as context; any type will do. */
interface AppRequest {
  user: string;
}

declare const handlers: PaymentRoutes<AppRequest>;
declare const options: Omit<PaymentRoutesOptions<AppRequest>, 'on' | 'resolveOrder'>;

describe('PaymentEvent', () => {
  it('is the union of the map, narrowed by `type`', () => {
    expectTypeOf<PaymentEvent>().toEqualTypeOf<PaymentEventMap[keyof PaymentEventMap]>();
    expectTypeOf<PaymentEvent['type']>().toEqualTypeOf<keyof PaymentEventMap>();
    const narrow = (event: PaymentEvent) => (event.type === 'refund.failed' ? event : undefined);
    expectTypeOf(narrow).returns.toEqualTypeOf<RefundFailedEvent | undefined>();
  });

  it('has as required what each event always carries', () => {
    expectTypeOf<PaymentSucceededEvent['referenceOrderId']>().toEqualTypeOf<string>();
    expectTypeOf<PaymentSucceededEvent['transactionId']>().toEqualTypeOf<string>();
    expectTypeOf<PaymentSucceededEvent['transactionRequestId']>().toEqualTypeOf<string>();
    expectTypeOf<PaymentSucceededEvent['sessionId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PaymentFailedEvent['reason']>().toEqualTypeOf<PaymentEventReason>();
    expectTypeOf<PaymentClosedEvent['sessionId']>().toEqualTypeOf<string>();
    expectTypeOf<PaymentClosedEvent['reason']>().toEqualTypeOf<PaymentEventReason>();
    expectTypeOf<RefundSucceededEvent['originalTransactionId']>().toEqualTypeOf<string>();
    // A refunded terminal sale has no order.
    expectTypeOf<RefundSucceededEvent['referenceOrderId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<RefundFailedEvent['reason']>().toEqualTypeOf<PaymentEventReason>();
    expectTypeOf<UnknownPaymentEvent['referenceOrderId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PaymentEvent['payload']>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('promises nothing an event does not carry', () => {
    // @ts-expect-error a success has no reason
    expectTypeOf<PaymentSucceededEvent['reason']>();
    // @ts-expect-error a payment has no originalTransactionId
    expectTypeOf<PaymentFailedEvent['originalTransactionId']>();
  });
});

describe('PaymentEventOf', () => {
  it('gives each name its event, the union for several, every event for *', () => {
    expectTypeOf<PaymentEventOf<'refund.succeeded'>>().toEqualTypeOf<RefundSucceededEvent>();
    expectTypeOf<PaymentEventOf<'payment.failed' | 'payment.closed'>>().toEqualTypeOf<PaymentFailedEvent | PaymentClosedEvent>();
    expectTypeOf<PaymentEventOf<'*'>>().toEqualTypeOf<PaymentEvent>();
    expectTypeOf<PaymentEventOf<'unknown'>>().toEqualTypeOf<UnknownPaymentEvent>();
  });
});

describe('the on option', () => {
  it('types each handler for its own event and the adapter context', () => {
    createPaymentRoutes<AppRequest>({
      ...options,
      resolveOrder: () => null,
      on: {
        'refund.succeeded': (event, ctx) => {
          expectTypeOf(event).toEqualTypeOf<RefundSucceededEvent>();
          expectTypeOf(ctx.context).toEqualTypeOf<AppRequest | undefined>();
        },
        'payment.closed': (event) => expectTypeOf(event.sessionId).toEqualTypeOf<string>(),
        '*': (event) => expectTypeOf(event).toEqualTypeOf<PaymentEvent>(),
      },
    });
  });

  it('refuses a handler of another event, and a name that is no event', () => {
    const on = (subscriptions: PaymentRoutesOptions<AppRequest>['on']) => subscriptions;
    // @ts-expect-error a refund handler cannot take payment.succeeded events
    on({ 'payment.succeeded': (event: RefundSucceededEvent) => event.originalTransactionId });
    // @ts-expect-error payment.succeeded has no reason
    on({ 'payment.succeeded': (event) => event.reason });
    // @ts-expect-error a handler of every event cannot take only one kind
    on({ '*': (event: PaymentSucceededEvent) => event.referenceOrderId });
    // @ts-expect-error misspelt
    on({ 'payment.succeded': () => undefined });
  });

  it('accepts a handler taking a wider event than its name gives', () => {
    createPaymentRoutes<AppRequest>({ ...options, resolveOrder: () => null, on: { 'payment.failed': (event: PaymentEvent) => event.type } });
  });
});

describe('handlers.on()', () => {
  it('types the handler from the event name', () => {
    handlers.on('payment.succeeded', (event, ctx) => {
      expectTypeOf(event).toEqualTypeOf<PaymentSucceededEvent>();
      expectTypeOf(ctx.context).toEqualTypeOf<AppRequest | undefined>();
    });
    handlers.on('refund.failed', (event) => expectTypeOf(event.reason).toEqualTypeOf<PaymentEventReason>());
    handlers.on('*', (event) => expectTypeOf(event).toEqualTypeOf<PaymentEvent>());
    expectTypeOf(handlers.on('payment.closed', () => undefined)).toEqualTypeOf<() => void>();
  });

  it('refuses a handler of the wrong signature', () => {
    // @ts-expect-error a payment.failed handler cannot take payment.succeeded events
    handlers.on('payment.succeeded', (event: PaymentFailedEvent) => event.reason);
    // @ts-expect-error the context is the adapter's request
    handlers.on('payment.succeeded', (_event, ctx: { context: number }) => ctx.context);
    // @ts-expect-error misspelt
    handlers.on('refund.succeded', () => undefined);
  });

  it('is typed the same on a PaymentEventRegistry of its own', () => {
    const own = new PaymentEventRegistry<AppRequest>();
    own.on('refund.succeeded', (event) => expectTypeOf(event.originalTransactionId).toEqualTypeOf<string>());
    // @ts-expect-error refund.succeeded has no sessionId
    own.on('refund.succeeded', (event) => event.sessionId);
  });
});

describe('resolveOrder', () => {
  it('gets the adapter context', () => {
    createPaymentRoutes<AppRequest>({
      ...options,
      resolveOrder: (orderId, ctx) => {
        expectTypeOf(orderId).toEqualTypeOf<string>();
        expectTypeOf(ctx).toEqualTypeOf<OrderLookupContext<AppRequest>>();
        expectTypeOf(ctx.context.user).toEqualTypeOf<string>();
        return null;
      },
    });
  });

  it('is unknown where no adapter says', () => {
    createPaymentRoutes({ ...options, resolveOrder: (_orderId, ctx) => expectTypeOf(ctx.context).toEqualTypeOf<unknown>() && null });
  });
});
