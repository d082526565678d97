import { expect } from 'vitest';

/** A shopper on the shop's pages and the sandbox's hosted checkout, as each shop's test drives one. */
export interface CheckoutShopper {
  buy(sku: string): Promise<string>;
  checkout(orderId: string): Promise<URL>;
  pay(checkoutUrl: URL): Promise<string>;
  status(orderId: string): Promise<string>;
}

/**
 * The sandbox dashboard's Expire button, on the session of the hosted checkout at `checkoutUrl`: the session
 * closes unpaid now, as one left unpaid for its 30 minutes does, and its `payment.closed` webhook goes out.
 * Not the sandbox's clock: a shop whose clock is its own (a Worker's) would refuse the webhooks of a moved one.
 */
async function expireSession(checkoutUrl: URL): Promise<void> {
  const sessionId = checkoutUrl.pathname.split('/').pop()!;
  const answer = await fetch(new URL(`/sandbox/dashboard/sessions/${sessionId}/expire`, checkoutUrl.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: checkoutUrl.origin },
    body: '',
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
}

/**
 * An order whose checkout the shopper abandons until it expires: once `webhooksAnswered` resolves, the order is
 * still payable, and a new checkout, on a page of its own, pays it. Resolves the order's id.
 */
export async function abandonThenPayAnew(shopper: CheckoutShopper, webhooksAnswered: () => Promise<void>): Promise<string> {
  const orderId = await shopper.buy('tee');
  const abandoned = await shopper.checkout(orderId);
  await expireSession(abandoned);
  await webhooksAnswered();
  expect(await shopper.status(orderId)).toBe('pending');
  const fresh = await shopper.checkout(orderId);
  expect(fresh.href).not.toBe(abandoned.href);
  await shopper.pay(fresh);
  expect(await shopper.status(orderId)).toBe('paid');
  return orderId;
}
