import { expect } from 'vitest';
import type { OrderStore } from '../../../../tests/readmes/context/orders';
import { payOnHostedPage, payWithWallet } from '../../../../tests/readmes/test/support/quick-start';

/**
 * A shopper's hosted checkout of a new order, paid on the sandbox's page (as
 * the READMEs' quick-start tests pay), then the README's webhook handler
 * marking it paid in the order store. Resolves the sandbox's origin.
 */
export async function hostedPaymentMarksPaid(paymentsUrl: string, orders: OrderStore, orderId: string, shopOrigin: string): Promise<string> {
  orders.add(orderId, 2500);
  const sandboxOrigin = await payOnHostedPage(paymentsUrl, orderId, shopOrigin);
  expect(await orders.waitFor(orderId, (o) => o.status === 'paid')).toMatchObject({ transactionId: expect.any(String) });
  return sandboxOrigin;
}

/** A shopper's wallet payment of a new order with a token of the sandbox's test wallet, then the README's webhook handler marking it paid. */
export async function walletPaymentMarksPaid(paymentsUrl: string, orders: OrderStore, orderId: string, sandboxOrigin: string): Promise<void> {
  orders.add(orderId, 1999);
  await payWithWallet(paymentsUrl, orderId, sandboxOrigin);
  expect(await orders.waitFor(orderId, (o) => o.status === 'paid')).toMatchObject({ transactionId: expect.any(String) });
}
