import { randomBytes } from 'node:crypto';
import type { PostgresQueryable } from '@paymount/postgres';
import type { Product } from './catalog.js';

/** `paid` and `refunded` are final for payments: a late or replayed payment event never moves an order back. */
export type OrderStatus = 'pending' | 'failed' | 'paid' | 'refunded';

export interface Order {
  /** Also the `referenceOrderId` the service sees: unguessable, 6 to 32 of `A-Za-z0-9_-`. */
  id: string;
  sku: string;
  name: string;
  /** Minor units, from the catalogue when the order was placed. */
  amount: number;
  currency: string;
  status: OrderStatus;
  /** The payment's transactionId, which a refund names. */
  transactionId: string | null;
}

/** The shop's table, beside paymount's (`paymount_*`) in the same database; applied at every start. */
export const ORDERS_TABLE = `CREATE TABLE IF NOT EXISTS shop_orders (
  id text PRIMARY KEY,
  sku text NOT NULL,
  name text NOT NULL,
  amount integer NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'failed', 'paid', 'refunded')),
  transaction_id text,
  created_at timestamptz NOT NULL DEFAULT now()
)`;

/** A declined, cancelled or expired attempt leaves the order payable: the shopper pays again instead of the sale being lost. */
export function isPayable(order: Order): boolean {
  return order.status === 'pending' || order.status === 'failed';
}

const COLUMNS = 'id, sku, name, amount, currency, status, transaction_id AS "transactionId"';

/**
 * The orders, through `db`: the database, or the transaction paymount runs a payment event's
 * handlers in, so an order's new status and the event's "handled" mark commit together.
 */
export class Orders {
  constructor(private readonly db: PostgresQueryable) {}

  async create(product: Product): Promise<Order> {
    const id = `ord_${randomBytes(12).toString('base64url')}`;
    const { rows } = await this.db.query<Order & Record<string, unknown>>(
      `INSERT INTO shop_orders (id, sku, name, amount, currency, status) VALUES ($1, $2, $3, $4, $5, 'pending') RETURNING ${COLUMNS}`,
      [id, product.sku, product.name, product.price, product.currency],
    );
    return rows[0]!;
  }

  async find(id: string): Promise<Order | undefined> {
    const { rows } = await this.db.query<Order & Record<string, unknown>>(`SELECT ${COLUMNS} FROM shop_orders WHERE id = $1`, [id]);
    return rows[0];
  }

  /** True when this call paid it: an order is paid once, whatever is delivered twice. */
  async markPaid(id: string, transactionId: string): Promise<boolean> {
    const { rows } = await this.db.query(
      "UPDATE shop_orders SET status = 'paid', transaction_id = $2 WHERE id = $1 AND status IN ('pending', 'failed') RETURNING id",
      [id, transactionId],
    );
    return rows.length === 1;
  }

  /** A declined attempt, for the shopper to see; never over a paid or refunded order. */
  async markFailed(id: string): Promise<void> {
    await this.db.query("UPDATE shop_orders SET status = 'failed' WHERE id = $1 AND status = 'pending'", [id]);
  }

  async markRefunded(paymentTransactionId: string): Promise<void> {
    await this.db.query("UPDATE shop_orders SET status = 'refunded' WHERE transaction_id = $1 AND status = 'paid'", [paymentTransactionId]);
  }
}
