import type { PaymentRoutesOptions } from '@paymount/core';
import { createPostgresStores, inTransaction, type PostgresDatabase } from '@paymount/postgres';
import type { Sandbox } from '@paymount/sandbox';
import type { ShopConfig } from './config.js';
import { Orders } from './orders.js';
import { orderOptions, paysShopOrder } from './payment-rules.js';

export { MOUNT, notifyUrlOf } from './payment-rules.js';

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
    // Webhook events handled once, and each order charged at most once, across restarts.
    store: stores.idempotency,
    orders: { store: stores.orders },
    ...orderOptions({ publicUrl, shopName, findOrder: (id) => orders.find(id) }),
    // Each handler runs in the transaction that marks its event handled: a crash leaves both or neither.
    on: {
      'payment.succeeded': inTransaction(async (event, { db: tx }) => {
        const inTx = new Orders(tx);
        const order = await inTx.find(event.referenceOrderId);
        if (paysShopOrder(event, order)) await inTx.markPaid(order.id, event.transactionId);
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
