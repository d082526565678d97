import { randomBytes } from 'node:crypto';
import type { PostgresQueryable } from '@paymount/postgres';
import type { Product } from './catalog.js';
import type { Order } from './order-rules.js';

export { isPayable, type Order, type OrderStatus } from './order-rules.js';

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
