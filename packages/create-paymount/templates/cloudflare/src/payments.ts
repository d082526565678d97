import { durableObjectStores, withEventCommit, type PaymountStateNamespace } from '@paymount/cloudflare';
import type { PaymentRoutesOptions } from '@paymount/core';
import type { ShopConfig } from './config.js';
import { Orders } from './orders.js';
import { orderOptions, paysShopOrder } from './payment-rules.js';

export { MOUNT, notifyUrlOf } from './payment-rules.js';

export const SHOP_NAME = 'Paymount shop';

export interface PaymentBindings {
  /** paymount's order guard and webhook dedupe, in its Durable Object (wrangler.jsonc). */
  PAYMOUNT_STATE: PaymountStateNamespace;
  /** The shop's orders (migrations/), and the handled marks its handlers' writes commit with. */
  DB: D1Database;
}

/**
 * The options of paymount's routes, made once per isolate from the Worker's settings and bindings.
 * Every isolate shares the stores (a Durable Object) and the orders (D1): what one isolate charged
 * or handled, another sees.
 */
export function paymentOptions<TContext>(config: ShopConfig, bindings: PaymentBindings): PaymentRoutesOptions<TContext> {
  const { service, publicUrl } = config;
  const stores = durableObjectStores(bindings.PAYMOUNT_STATE, { d1: bindings.DB });
  const orders = new Orders(bindings.DB);
  return {
    client: {
      apiKey: service.apiKey,
      baseUrl: service.baseUrl,
      appId: service.appId,
      merchantId: service.merchantId,
      // Only against the sandbox npm start runs: plain HTTP and a notify URL on this machine.
      localDevelopment: config.sandboxUrl !== undefined,
    },
    webhook: { secret: service.webhookSecret },
    wallet: { gatewayId: service.gatewayId, merchantName: SHOP_NAME },
    // Webhook events handled once, and each order charged at most once, whichever isolate a request lands in.
    store: stores.idempotency,
    orders: { store: stores.orders },
    ...orderOptions({ publicUrl, shopName: SHOP_NAME, findOrder: (id) => orders.find(id) }),
    // Each handler's D1 statements run in the batch that marks its event handled: both commit, or neither.
    on: {
      'payment.succeeded': withEventCommit(async (event, { db }) => {
        const order = await orders.find(event.referenceOrderId);
        if (paysShopOrder(event, order)) db.d1(orders.markPaid(order.id, event.transactionId));
      }),
      'payment.failed': withEventCommit(async (event, { db }) => {
        db.d1(orders.markFailed(event.referenceOrderId));
      }),
      'refund.succeeded': withEventCommit(async (event, { db }) => {
        db.d1(orders.markRefunded(event.originalTransactionId));
      }),
    },
  };
}
