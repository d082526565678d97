import { randomBytes } from 'node:crypto';
import type { Product } from './catalog';

/** `paid` and the two refund states are the paid side: no payment event moves an order back from them. */
export type OrderStatus = 'pending' | 'paid' | 'failed' | 'partially_refunded' | 'refunded';

/** What the payment events may set; the refund states follow from the order's refunds. */
export type PaymentOutcome = 'pending' | 'paid' | 'failed';

export type RefundState = 'requested' | 'succeeded' | 'failed';

/** A refund of the order's payment, as the back office asked for it and the refund webhook settled it. */
export interface OrderRefund {
  /** The refund's `transactionRequestId`, chosen before the call so that its webhook finds it. */
  requestId: string;
  /** Minor units: what was asked for, then what the service reports as refunded. */
  amount: number;
  state: RefundState;
  /** The refund's own transactionId, once the service reports it. */
  transactionId?: string;
  /** Why it failed, in words for the back office. */
  reason?: string;
}

export interface Order {
  /** Also the `referenceOrderId` sent to the service: 6 to 32 characters of `[A-Za-z0-9_-]`. */
  id: string;
  product: Product;
  /** Total in minor units, computed on the server from the catalogue. */
  total: number;
  currency: string;
  status: OrderStatus;
  /** Why the status is what it is, in words for the customer. */
  note: string;
  /** The payment's transactionId, from its `payment.succeeded` event: what a refund names. */
  paymentTransactionId?: string;
  refunds: OrderRefund[];
  createdAt: Date;
}

/** The outcome of a refund, from its webhook (or from the service refusing the call). */
export interface RefundOutcome {
  state: 'succeeded' | 'failed';
  /** What the service reports as refunded, when it says. */
  amount?: number;
  transactionId?: string;
  reason?: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function newOrderId(): string {
  // 16 random characters drawn without modulo bias (62 * 4 = 248 < 256).
  const chars: string[] = [];
  while (chars.length < 16) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && chars.length < 16) chars.push(ALPHABET[byte % 62] as string);
    }
  }
  return `ord_${chars.join('')}`;
}

/** Whether the order was paid (refunded or not): its payment is final. */
export function isPaid(order: Order): boolean {
  return order.status === 'paid' || order.status === 'partially_refunded' || order.status === 'refunded';
}

function sumOf(order: Order, states: readonly RefundState[]): number {
  return order.refunds.reduce((sum, refund) => (states.includes(refund.state) ? sum + refund.amount : sum), 0);
}

/** Minor units given back so far. */
export function refundedAmount(order: Order): number {
  return sumOf(order, ['succeeded']);
}

/** Minor units a new refund may still give back: a refund awaiting its webhook counts as given. */
export function refundableAmount(order: Order): number {
  return isPaid(order) ? order.total - sumOf(order, ['succeeded', 'requested']) : 0;
}

/** Refunds whose webhook has not arrived yet. */
export function awaitingRefunds(order: Order): number {
  return order.refunds.filter((refund) => refund.state === 'requested').length;
}

function paidStatus(order: Order): OrderStatus {
  const refunded = refundedAmount(order);
  if (refunded === 0) return 'paid';
  return refunded >= order.total ? 'refunded' : 'partially_refunded';
}

/**
 * Orders kept in memory, as a demo shop may. Bounded: past `maxOrders` the
 * oldest is forgotten, so a long-running example cannot grow without limit.
 */
export class OrderStore {
  private readonly orders = new Map<string, Order>();

  constructor(private readonly maxOrders = 1000) {}

  create(product: Product, now = new Date()): Order {
    const order: Order = {
      id: newOrderId(),
      product,
      total: product.unitPrice,
      currency: product.currency,
      status: 'pending',
      note: 'Awaiting payment.',
      refunds: [],
      createdAt: now,
    };
    this.orders.set(order.id, order);
    if (this.orders.size > this.maxOrders) {
      const oldest = this.orders.keys().next().value;
      if (oldest !== undefined) this.orders.delete(oldest);
    }
    return order;
  }

  get(id: string): Order | undefined {
    return this.orders.get(id);
  }

  /** The order whose payment is `transactionId`, for a refund event that names no order. */
  findByPayment(transactionId: string): Order | undefined {
    for (const order of this.orders.values()) if (order.paymentTransactionId === transactionId) return order;
    return undefined;
  }

  /**
   * A payment outcome. Paid is final: a late failure, or the `payment.closed`
   * of a session abandoned before the order was paid another way, changes nothing.
   */
  settle(id: string, outcome: PaymentOutcome, note: string, transactionId?: string): Order | undefined {
    const order = this.orders.get(id);
    if (!order || isPaid(order)) return order;
    order.status = outcome;
    order.note = note;
    if (outcome === 'paid' && transactionId !== undefined) order.paymentTransactionId = transactionId;
    return order;
  }

  /** A refund about to be sent: it counts against what remains refundable until its webhook settles it. */
  requestRefund(id: string, requestId: string, amount: number): void {
    this.orders.get(id)?.refunds.push({ requestId, amount, state: 'requested' });
  }

  /**
   * A refund's outcome. A settled refund is final (a redelivered webhook
   * changes nothing); one the shop did not ask for (made from the service's
   * own dashboard) is recorded as it comes.
   */
  settleRefund(id: string, requestId: string, outcome: RefundOutcome): Order | undefined {
    const order = this.orders.get(id);
    if (!order) return undefined;
    let refund = order.refunds.find((candidate) => candidate.requestId === requestId);
    if (refund === undefined) {
      if (outcome.amount === undefined) return order;
      refund = { requestId, amount: outcome.amount, state: 'requested' };
      order.refunds.push(refund);
    }
    if (refund.state !== 'requested') return order;
    refund.state = outcome.state;
    if (outcome.amount !== undefined) refund.amount = outcome.amount;
    if (outcome.transactionId !== undefined) refund.transactionId = outcome.transactionId;
    if (outcome.reason !== undefined) refund.reason = outcome.reason;
    if (isPaid(order)) order.status = paidStatus(order);
    return order;
  }
}
