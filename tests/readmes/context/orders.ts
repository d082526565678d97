/**
 * "Your own order store" of the READMEs' examples (`import { orders } from
 * './orders'`): a shop's orders in memory, written the way a merchant's would
 * be. The quick-start tests seed it and read what the README's handlers did.
 */
export interface Order {
  id: string;
  totalCents: number;
  status: 'unpaid' | 'paid' | 'failed' | 'refunded';
  transactionId?: string;
  refunds: { transactionId: string; cents?: number }[];
  /** Every change the app made, in order (`paid`, `failed`, `refunded`...). */
  changes: string[];
}

export class OrderStore {
  private readonly orders = new Map<string, Order>();

  add(id: string, totalCents: number): Order {
    const order: Order = { id, totalCents, status: 'unpaid', refunds: [], changes: [] };
    this.orders.set(id, order);
    return order;
  }

  async find(id: string): Promise<Order | undefined> {
    return this.orders.get(id);
  }

  async markPaid(id: string, transactionId: string): Promise<void> {
    this.update(id, { status: 'paid', transactionId });
  }

  /**
   * Records a declined or closed attempt for the shopper to see; the READMEs' resolveOrder keeps a
   * failed order payable. Paid is final, and refunded is on its paid side: a late failure or close
   * changes neither.
   */
  async markFailedUnlessPaid(id: string): Promise<void> {
    const status = this.orders.get(id)?.status;
    if (status !== 'paid' && status !== 'refunded') this.update(id, { status: 'failed' });
  }

  async markRefunded(paymentTransactionId: string, refundTransactionId: string, amount?: { orderAmount?: number | undefined }): Promise<void> {
    const order = [...this.orders.values()].find((o) => o.transactionId === paymentTransactionId);
    if (!order) throw new Error(`no order paid by ${paymentTransactionId}`);
    order.refunds.push({ transactionId: refundTransactionId, ...(amount?.orderAmount === undefined ? {} : { cents: amount.orderAmount }) });
    this.update(order.id, { status: 'refunded' });
  }

  /** Resolves once the app changed the order (a webhook handler ran) and `done(order)` holds, or throws after `timeoutMs`. */
  async waitFor(id: string, done: (order: Order) => boolean, timeoutMs = 15_000): Promise<Order> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const order = this.orders.get(id);
      if (order && order.changes.length > 0 && done(order)) return order;
      if (Date.now() > deadline) throw new Error(`order ${id} is still ${JSON.stringify(order)} after ${timeoutMs} ms`);
      // A plain timer, not node:timers: this store is also bundled into a Worker that has no Node modules.
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  private update(id: string, change: Partial<Order>, name: string | undefined = change.status): void {
    const order = this.orders.get(id);
    if (!order) throw new Error(`no order ${id}`);
    Object.assign(order, change);
    if (name) order.changes.push(name);
  }
}

export const orders = new OrderStore();
