import { paysOrder, type PaymentRoutesOptions } from '@paymount/core';
import { createPostgresStores, inTransaction, type PostgresDatabase } from '@paymount/postgres';
import type { Sandbox } from '@paymount/sandbox';
import type { ShopConfig } from './config.js';
import { isPayable, Orders } from './orders.js';

/** Where every template mounts paymount's routes. */
export const MOUNT = '/payments';

/** Where the service posts payments' and refunds' results. */
export function notifyUrlOf(publicUrl: string): string {
  return `${publicUrl}${MOUNT}/webhook`;
}

export interface PaymentSetup {
  config: ShopConfig;
  /** The embedded sandbox, in development. */
  sandbox: Sandbox | undefined;
  db: PostgresDatabase;
  /** Where the shop is reached, without a trailing slash. */
  publicUrl: string;
  shopName: string;
}

/**
 * The options of paymount's routes, the same for every framework's adapter. Against the sandbox,
 * its keys, secret and clock; otherwise the service's, from the environment.
 */
export function paymentOptions({ config, sandbox, db, publicUrl, shopName }: PaymentSetup): PaymentRoutesOptions {
  const { service } = config;
  // The tables were made at start (openDatabase), not at the stores' first query.
  const stores = createPostgresStores(db, { migrate: false });
  const orders = new Orders(db);
  return {
    client: service.kind === 'service'
      ? { apiKey: service.apiKey, baseUrl: service.baseUrl, appId: service.appId, merchantId: service.merchantId }
      : sandboxOf(sandbox).clientOptions(),
    // The sandbox's clock, so moving its time (to expire a session) still verifies its webhooks.
    ...(sandbox ? { clock: sandbox.clock } : {}),
    webhook: { secret: service.kind === 'service' ? service.webhookSecret : sandboxOf(sandbox).webhookSecret },
    wallet: { gatewayId: service.kind === 'service' ? service.gatewayId : sandboxOf(sandbox).gatewayId, merchantName: shopName },
    notifyUrl: notifyUrlOf(publicUrl),
    merchantReturnUrl: (order) => `${publicUrl}/orders/${order.referenceOrderId}`,
    // Webhook events handled once, and each order charged at most once, across restarts.
    store: stores.idempotency,
    orders: { store: stores.orders },
    // The amount comes from the server's order, whatever the browser sent.
    async resolveOrder(orderId) {
      const order = await orders.find(orderId);
      if (!order) return null;
      return {
        referenceOrderId: order.id,
        amount: { orderAmount: order.amount, priceCurrency: order.currency },
        description: `${shopName}: ${order.name}`,
        // Paid or refunded: answered 409 ORDER_NOT_PAYABLE, nothing sent to the service.
        payable: isPayable(order),
      };
    },
    // Each handler runs in the transaction that marks its event handled: a crash leaves both or neither.
    on: {
      'payment.succeeded': inTransaction(async (event, { db: tx }) => {
        const inTx = new Orders(tx);
        const order = await inTx.find(event.referenceOrderId);
        // Only a payment these routes made for this order, of its whole amount, pays it.
        if (order && paysOrder(event, { orderAmount: order.amount, priceCurrency: order.currency })) {
          await inTx.markPaid(order.id, event.transactionId);
        } else {
          console.warn(`Payment ${event.transactionId} does not pay order ${event.referenceOrderId}: refund it.`);
        }
      }),
      'payment.failed': inTransaction(async (event, { db: tx }) => {
        await new Orders(tx).markFailed(event.referenceOrderId);
      }),
      'refund.succeeded': inTransaction(async (event, { db: tx }) => {
        await new Orders(tx).markRefunded(event.originalTransactionId);
      }),
    },
  };
}

function sandboxOf(sandbox: Sandbox | undefined): Sandbox {
  if (!sandbox) throw new Error('No payment service is configured and no sandbox was started.');
  return sandbox;
}
