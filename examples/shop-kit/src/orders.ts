import { randomBytes } from 'node:crypto';
import type { PostgresDatabase, PostgresQueryable } from '@paymount/postgres';
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

interface OrderRow {
  id: string;
  product: Product | string;
  total: number;
  currency: string;
  status: OrderStatus;
  note: string;
  payment_transaction_id: string | null;
  created_at: Date | string;
}

interface RefundRow {
  request_id: string;
  amount: number;
  state: RefundState;
  transaction_id: string | null;
  reason: string | null;
}

const ORDER_COLUMNS = 'id, product, total, currency, status, note, payment_transaction_id, created_at';

function refundOf(row: RefundRow): OrderRefund {
  return {
    requestId: row.request_id,
    amount: row.amount,
    state: row.state,
    ...(row.transaction_id === null ? {} : { transactionId: row.transaction_id }),
    ...(row.reason === null ? {} : { reason: row.reason }),
  };
}

async function insertRefund(q: PostgresQueryable, orderId: string, requestId: string, amount: number): Promise<void> {
  await q.query("INSERT INTO shop_refunds (order_id, request_id, amount, state) VALUES ($1, $2, $3, 'requested')", [orderId, requestId, amount]);
}

/**
 * The shop's orders, in its database (`shop_orders`, `shop_refunds`; see
 * `migrations/`). `within(tx)` gives the same store inside a transaction the
 * caller holds: a payment event's handler writes through paymount's, so the
 * order's new state and the event's "handled" mark commit together.
 */
export class OrderStore {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly tx?: PostgresQueryable,
  ) {}

  /** This store writing in the caller's transaction `tx`. */
  within(tx: PostgresQueryable): OrderStore {
    return new OrderStore(this.db, tx);
  }

  private get queryable(): PostgresQueryable {
    return this.tx ?? this.db;
  }

  /** Runs `work` in the caller's transaction, or in one of its own. */
  private atomically<T>(work: (tx: PostgresQueryable) => Promise<T>): Promise<T> {
    return this.tx === undefined ? this.db.transaction(work) : work(this.tx);
  }

  async create(product: Product, now = new Date()): Promise<Order> {
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
    await this.queryable.query(`INSERT INTO shop_orders (${ORDER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, NULL, $7)`, [
      order.id,
      JSON.stringify(product),
      order.total,
      order.currency,
      order.status,
      order.note,
      now.toISOString(),
    ]);
    return order;
  }

  get(id: string): Promise<Order | undefined> {
    return this.orderWhere('id = $1', id, this.queryable);
  }

  /** The order whose payment is `transactionId`, for a refund event that names no order. */
  findByPayment(transactionId: string): Promise<Order | undefined> {
    return this.orderWhere('payment_transaction_id = $1', transactionId, this.queryable);
  }

  private async orderWhere(condition: string, value: string, q: PostgresQueryable, lock = ''): Promise<Order | undefined> {
    const { rows } = await q.query<OrderRow & Record<string, unknown>>(`SELECT ${ORDER_COLUMNS} FROM shop_orders WHERE ${condition} LIMIT 1${lock}`, [value]);
    const row = rows[0];
    if (row === undefined) return undefined;
    const refunds = await q.query<RefundRow & Record<string, unknown>>(
      'SELECT request_id, amount, state, transaction_id, reason FROM shop_refunds WHERE order_id = $1 ORDER BY seq',
      [row.id],
    );
    return {
      id: row.id,
      // PGlite and node-postgres both parse jsonb; a driver that does not gives the text.
      product: typeof row.product === 'string' ? (JSON.parse(row.product) as Product) : row.product,
      total: row.total,
      currency: row.currency,
      status: row.status,
      note: row.note,
      ...(row.payment_transaction_id === null ? {} : { paymentTransactionId: row.payment_transaction_id }),
      refunds: refunds.rows.map(refundOf),
      createdAt: new Date(row.created_at),
    };
  }

  /**
   * A payment outcome. Paid is final: a late failure, or the `payment.closed`
   * of a session abandoned before the order was paid another way, changes nothing.
   */
  async settle(id: string, outcome: PaymentOutcome, note: string, transactionId?: string): Promise<Order | undefined> {
    await this.queryable.query(
      `UPDATE shop_orders SET status = $2, note = $3, payment_transaction_id = CASE WHEN $2 = 'paid' THEN coalesce($4, payment_transaction_id) ELSE payment_transaction_id END
        WHERE id = $1 AND status NOT IN ('paid', 'partially_refunded', 'refunded')`,
      [id, outcome, note, transactionId ?? null],
    );
    return this.get(id);
  }

  /** A refund about to be sent: it counts against what remains refundable until its webhook settles it. */
  requestRefund(id: string, requestId: string, amount: number): Promise<void> {
    return insertRefund(this.queryable, id, requestId, amount);
  }

  /**
   * A refund's outcome. A settled refund is final (a redelivered webhook
   * changes nothing); one the shop did not ask for (made from the service's
   * own dashboard) is recorded as it comes.
   */
  settleRefund(id: string, requestId: string, outcome: RefundOutcome): Promise<Order | undefined> {
    return this.atomically(async (tx) => {
      // The order's row lock: two refund events of one order settle one after the other.
      const order = await this.orderWhere('id = $1', id, tx, ' FOR UPDATE');
      if (!order) return undefined;
      let refund = order.refunds.find((candidate) => candidate.requestId === requestId);
      if (refund === undefined) {
        if (outcome.amount === undefined) return order;
        refund = { requestId, amount: outcome.amount, state: 'requested' };
        order.refunds.push(refund);
        await insertRefund(tx, id, requestId, refund.amount);
      }
      if (refund.state !== 'requested') return order;
      refund.state = outcome.state;
      if (outcome.amount !== undefined) refund.amount = outcome.amount;
      if (outcome.transactionId !== undefined) refund.transactionId = outcome.transactionId;
      if (outcome.reason !== undefined) refund.reason = outcome.reason;
      await tx.query('UPDATE shop_refunds SET state = $3, amount = $4, transaction_id = $5, reason = $6 WHERE order_id = $1 AND request_id = $2', [
        id,
        requestId,
        refund.state,
        refund.amount,
        refund.transactionId ?? null,
        refund.reason ?? null,
      ]);
      if (isPaid(order)) {
        order.status = paidStatus(order);
        await tx.query('UPDATE shop_orders SET status = $2 WHERE id = $1', [id, order.status]);
      }
      return order;
    });
  }
}
