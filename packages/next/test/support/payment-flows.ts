import { expect } from 'vitest';
import type { OrderStore } from '../../../../tests/readmes/context/orders';

export async function postJson(url: string, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The form the page's button `id` submits, read from the page as a browser would. */
function formAction(html: string, buttonId: string, origin: string): string {
  const form = html.split('<form').find((part) => part.includes(`id="${buttonId}"`));
  const action = /action="([^"]+)"/.exec(form ?? '')?.[1];
  if (!action) throw new Error(`the hosted page has no form with button #${buttonId}`);
  return new URL(action, origin).href;
}

/**
 * A shopper's hosted checkout: `POST /checkout` on the app, the sandbox's
 * page, its **Pay with test wallet** button; the README's webhook handler
 * then marks the order paid in the order store. Resolves the sandbox's origin.
 */
export async function payOnHostedPage(paymentsUrl: string, orders: OrderStore, orderId: string, shopOrigin: string): Promise<string> {
  orders.add(orderId, 2500);
  const checkout = await postJson(`${paymentsUrl}/checkout`, { orderId });
  expect(checkout).toMatchObject({ status: 201, body: { checkoutUrl: expect.any(String), expiresAt: expect.any(String) } });
  const checkoutUrl = new URL(String(checkout.body['checkoutUrl']));
  const page = await fetch(checkoutUrl);
  expect(page.status).toBe(200);
  const paid = await fetch(formAction(await page.text(), 'pay', checkoutUrl.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toMatch(new RegExp(`^${shopOrigin}/orders/${orderId}\\?`));
  expect(await orders.waitFor(orderId, (o) => o.status === 'paid')).toMatchObject({ transactionId: expect.any(String) });
  return checkoutUrl.origin;
}

/**
 * A shopper's wallet payment: the wallet request (its total from the order on
 * the server), a token from the sandbox's test wallet, `POST /wallet/pay`;
 * then the sandbox's webhook reaches the README's handler.
 */
export async function payWithWallet(paymentsUrl: string, orders: OrderStore, orderId: string, sandboxOrigin: string): Promise<void> {
  orders.add(orderId, 1999);
  const config = await fetch(`${paymentsUrl}/wallet/config?orderId=${orderId}`);
  expect(config.status).toBe(200);
  expect(await config.json()).toMatchObject({ transactionInfo: { totalPrice: '19.99', currencyCode: 'USD' } });
  const minted = await postJson(`${sandboxOrigin}/sandbox/wallet-token`, {});
  expect(minted.status).toBe(201);
  const paid = await postJson(`${paymentsUrl}/wallet/pay`, { orderId, token: minted.body['token'] });
  expect(paid).toMatchObject({ status: 200, body: { status: 'succeeded', referenceOrderId: orderId, transactionId: expect.any(String) } });
  const order = await orders.waitFor(orderId, (o) => o.status === 'paid');
  expect(order.transactionId).toBe(paid.body['transactionId']);
}
