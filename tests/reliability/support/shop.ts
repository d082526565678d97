import type { Logger, MerchantOrder, PaymentClientOptions, PaymentEvent, PaymentRoutesOptions } from '@paymount/core';
import type { Sandbox, TimeSource } from '@paymount/sandbox';

export type OrderState = 'open' | 'pending' | 'paid' | 'failed' | 'closed';

export interface ShopOrder extends MerchantOrder {
  id: string;
  state: OrderState;
}

/**
 * The merchant's side of a run: server-side orders (the only source of
 * amounts) and the order state its webhook handler and route answers keep.
 * Its rule for results that arrive in any order: `paid` is final, so a
 * `payment.failed` or `payment.closed` arriving after (or for another attempt
 * than) a success never downgrades the order.
 */
export class Shop {
  readonly orders = new Map<string, ShopOrder>();
  private readonly byReference = new Map<string, ShopOrder>();
  /** Handler effects per event identity (type + transaction): exactly-once means every count is 1. */
  readonly effects = new Map<string, number>();
  /** Every event the handler was called with, including calls that then failed on purpose. */
  readonly handlerRuns: PaymentEvent[] = [];

  addOrder(id: string, orderAmount: number, currency = 'USD'): ShopOrder {
    // referenceOrderId: 6–32 chars of the service's pattern.
    const order: ShopOrder = {
      id,
      referenceOrderId: `ref-${id}`.slice(0, 32),
      amount: { orderAmount, priceCurrency: currency },
      description: `Order ${id}`,
      state: 'open',
    };
    this.orders.set(id, order);
    this.byReference.set(order.referenceOrderId, order);
    return order;
  }

  byReferenceId(referenceOrderId: string): ShopOrder | undefined {
    return this.byReference.get(referenceOrderId);
  }

  readonly resolveOrder = (orderId: string): MerchantOrder | null => {
    const order = this.orders.get(orderId);
    if (!order) return null;
    const { referenceOrderId, amount, description } = order;
    return { referenceOrderId, amount, description };
  };

  /** What the route answered for a wallet payment. */
  recordPaymentAnswer(orderId: string, status: 'succeeded' | 'failed' | 'pending'): void {
    const order = this.orders.get(orderId);
    if (!order) return;
    this.move(order, status === 'succeeded' ? 'paid' : status === 'failed' ? 'failed' : 'pending');
  }

  /** The effect of one event: counted, then applied to the order under the "paid is final" rule. */
  applyEvent(event: PaymentEvent): void {
    const identity = `${event.type}:${event.transactionId ?? event.transactionRequestId ?? event.deliveryId}`;
    this.effects.set(identity, (this.effects.get(identity) ?? 0) + 1);
    const order = event.referenceOrderId === undefined ? undefined : this.byReference.get(event.referenceOrderId);
    if (!order) return;
    if (event.type === 'payment.succeeded') this.move(order, 'paid');
    else if (event.type === 'payment.failed') this.move(order, 'failed');
    else if (event.type === 'payment.closed') this.move(order, 'closed');
  }

  duplicateEffects(): Array<[string, number]> {
    return [...this.effects].filter(([, count]) => count !== 1);
  }

  private move(order: ShopOrder, next: OrderState): void {
    if (order.state === 'paid') return;
    if (next === 'pending' && order.state !== 'open') return;
    order.state = next;
  }
}

/** What a merchant's app knows of the sandbox: how to call it, its wallet gateway, webhook secret, and its time (read, never moved). */
export type SandboxView = Pick<Sandbox, 'clientOptions' | 'gatewayId' | 'webhookSecret'> & { clock: TimeSource };

export interface ShopOptionsInput {
  sandbox: SandboxView;
  shop: Shop;
  logger?: Logger;
  /** The app's routes URL, known once it listens. */
  routesUrl: () => string;
  client?: Partial<PaymentClientOptions>;
  /** Wraps the shop's event handler, e.g. to fail some deliveries on purpose. */
  handler?: (event: PaymentEvent, apply: () => void) => void | Promise<void>;
}

/** Handler options against the sandbox, with the shop's orders and its webhook handler on every event. */
export function shopOptions(input: ShopOptionsInput): PaymentRoutesOptions {
  const { sandbox, shop } = input;
  return {
    client: {
      ...sandbox.clientOptions(),
      ...input.client,
    },
    resolveOrder: shop.resolveOrder,
    notifyUrl: () => `${input.routesUrl()}/webhook`,
    wallet: { gatewayId: sandbox.gatewayId },
    webhook: { secret: sandbox.webhookSecret },
    clock: sandbox.clock,
    // Faults are these tests' business: their lines go to a logger the test reads, or nowhere.
    logger: input.logger ?? false,
    on: {
      '*': async (event) => {
        shop.handlerRuns.push(event);
        const apply = () => shop.applyEvent(event);
        if (input.handler) await input.handler(event, apply);
        else apply();
      },
    },
  };
}
