// The fresh apps' "own order store" (`./orders.js` in the READMEs): the README tests' store
// (copied beside it as order-store.ts), holding the orders a test asks for in SHOP_ORDERS
// (`id:cents,id:cents`), and saying on stdout when a webhook handler marked one paid or failed,
// which is how a test outside the app's process sees the handler run.
import { OrderStore } from './order-store.js';

export { OrderStore };

class ShopOrders extends OrderStore {
  override async markPaid(id: string, transactionId: string): Promise<void> {
    await super.markPaid(id, transactionId);
    // eslint-disable-next-line no-console -- the app's own log line, which the test reads
    console.info(`shop: order ${id} paid by ${transactionId}`);
  }

  override async markFailedUnlessPaid(id: string): Promise<void> {
    await super.markFailedUnlessPaid(id);
    // eslint-disable-next-line no-console -- the app's own log line, which the test reads
    if ((await this.find(id))?.status === 'failed') console.info(`shop: order ${id} failed`);
  }
}

export const orders = new ShopOrders();
for (const entry of (process.env['SHOP_ORDERS'] ?? '').split(',').filter(Boolean)) {
  const [id = '', cents = ''] = entry.split(':');
  orders.add(id, Number(cents));
}
