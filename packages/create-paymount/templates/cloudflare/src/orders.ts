import type { Product } from './catalog.js';
import type { Order } from './order-rules.js';

export { isPayable, type Order, type OrderStatus } from './order-rules.js';

/** URL-safe random text: ids and session keys nobody can guess. */
export function randomId(bytes: number): string {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...random)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const COLUMNS = 'id, sku, name, amount, currency, status, transaction_id AS transactionId';

/**
 * The orders, in D1 (migrations/), where every isolate of the Worker reads them. The changes a
 * payment event makes are statements, not calls: paymount runs them in the batch that marks the
 * event handled (withEventCommit), so both commit or neither.
 */
export class Orders {
  constructor(private readonly db: D1Database) {}

  async create(product: Product): Promise<Order> {
    const order = await this.db
      .prepare(`INSERT INTO shop_orders (id, sku, name, amount, currency, status) VALUES (?, ?, ?, ?, ?, 'pending') RETURNING ${COLUMNS}`)
      .bind(`ord_${randomId(12)}`, product.sku, product.name, product.price, product.currency)
      .first<Order>();
    return order!;
  }

  async find(id: string): Promise<Order | undefined> {
    return (await this.db.prepare(`SELECT ${COLUMNS} FROM shop_orders WHERE id = ?`).bind(id).first<Order>()) ?? undefined;
  }

  /** Pays the order once, whatever is delivered twice. */
  markPaid(id: string, transactionId: string): D1PreparedStatement {
    return this.db.prepare("UPDATE shop_orders SET status = 'paid', transaction_id = ? WHERE id = ? AND status IN ('pending', 'failed')").bind(transactionId, id);
  }

  /** A declined attempt, for the shopper to see; never over a paid or refunded order. */
  markFailed(id: string): D1PreparedStatement {
    return this.db.prepare("UPDATE shop_orders SET status = 'failed' WHERE id = ? AND status = 'pending'").bind(id);
  }

  markRefunded(paymentTransactionId: string): D1PreparedStatement {
    return this.db.prepare("UPDATE shop_orders SET status = 'refunded' WHERE transaction_id = ? AND status = 'paid'").bind(paymentTransactionId);
  }
}
