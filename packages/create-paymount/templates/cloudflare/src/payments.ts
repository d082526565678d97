import { durableObjectStores, withEventCommit, type PaymountStateNamespace } from '@paymount/cloudflare';
import { paysOrder, type PaymentRoutesOptions } from '@paymount/core';
import type { ShopConfig } from './config.js';
import { isPayable, Orders } from './orders.js';

/** Where the shop mounts paymount's routes. */
export const MOUNT = '/payments';

export const SHOP_NAME = 'Paymount shop';

/** Where the service posts payments' and refunds' results. */
export function notifyUrlOf(publicUrl: string): string {
  return `${publicUrl}${MOUNT}/webhook`;
}

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
    notifyUrl: notifyUrlOf(publicUrl),
    merchantReturnUrl: (order) => `${publicUrl}/orders/${order.referenceOrderId}`,
    // Webhook events handled once, and each order charged at most once, whichever isolate a request lands in.
    store: stores.idempotency,
    orders: { store: stores.orders },
    // The amount comes from the server's order, whatever the browser sent.
    async resolveOrder(orderId) {
      const order = await orders.find(orderId);
      if (!order) return null;
      return {
        referenceOrderId: order.id,
        amount: { orderAmount: order.amount, priceCurrency: order.currency },
        description: `${SHOP_NAME}: ${order.name}`,
        // Paid or refunded: answered 409 ORDER_NOT_PAYABLE, nothing sent to the service.
        payable: isPayable(order),
      };
    },
    // Each handler's D1 statements run in the batch that marks its event handled: both commit, or neither.
    on: {
      'payment.succeeded': withEventCommit(async (event, { db }) => {
        const order = await orders.find(event.referenceOrderId);
        // Only a payment these routes made for this order, of its whole amount, pays it.
        if (order && paysOrder(event, { orderAmount: order.amount, priceCurrency: order.currency })) {
          db.d1(orders.markPaid(order.id, event.transactionId));
        } else {
          console.warn(`Payment ${event.transactionId} does not pay order ${event.referenceOrderId}: refund it.`);
        }
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
