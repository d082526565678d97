import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, payOnHostedPage, payWithWallet, postJson } from '../../readmes/test/support/quick-start';
import { startNextApp } from '../src/next-app';
import { APP_API_TOKEN, type RunningApp } from '../src/run';
import { dashboardDelivery, expectAuthFix, settledDeliveries } from './running-app';

const { dir, nextBuild } = inject('freshProject');
const appDir = join(dir, 'next');
const orderId = 'fresh-next-1';
const refusedOrderId = 'fresh-next-refused';
const declinedOrderId = 'fresh-next-declined';
const expiredOrderId = 'fresh-next-expired';

// The quick start's three files and the "An app-wide proxy" block as proxy.ts, built in global-setup.ts.
describe('the next README, built with next build and served by next start with PAYMOUNT_SANDBOX=1', () => {
  let running: Omit<RunningApp, 'announcement'> | undefined;
  const app = () => {
    if (!running) throw new Error(`next start did not start${nextBuild.failure ? `: ${nextBuild.failure}` : ''}`);
    return running;
  };

  beforeAll(async () => {
    if (!nextBuild.failure) running = await startNextApp(dir, appDir, await freePort(), { [orderId]: 2500, [refusedOrderId]: 2500, [declinedOrderId]: 1750, [expiredOrderId]: 1500 });
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('builds with next build, without a payment setting in its environment', () => {
    expect(nextBuild.failure).toBeUndefined();
  });

  it("takes a hosted checkout paid on the sandbox page; the webhook passes the proxy and the handler marks the order paid", async () => {
    const sandboxUrl = await payOnHostedPage(`${app().origin}/payments`, orderId, app().origin);
    await app().waitForOutput(new RegExp(`shop: order ${orderId} paid by \\S+`));
    expect(await settledDeliveries(sandboxUrl, orderId)).toEqual([
      expect.objectContaining({ event: 'payment.succeeded', state: 'delivered', url: `${app().origin}/payments/webhook` }),
    ]);
  });

  it("the proxy as written refuses another path without the app's token (401) and lets it through with it, to the quick start's order page", async () => {
    const refused = await fetch(`${app().origin}/orders/${orderId}`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'sign in first' });
    // The order page is behind the README's proxy: the shopper signed in.
    const through = await fetch(`${app().origin}/orders/${orderId}`, { headers: { authorization: `Bearer ${APP_API_TOKEN}` } });
    expect(through.status).toBe(200);
    expect(await through.text()).toBe(`Order ${orderId}: paid`);
  });

  it("refuses the webhook of routes mounted where the proxy's matcher does not leave them out; the sandbox's dashboard names Next.js's fix first", async () => {
    // The sandbox the app's instrumentation started: where its checkout page is.
    const checkout = await postJson(`${app().origin}/payments/checkout`, { orderId: refusedOrderId });
    expect(checkout.status).toBe(201);
    const sandboxUrl = new URL(String(checkout.body.checkoutUrl)).origin;
    const triggered = await postJson(`${sandboxUrl}/sandbox/trigger`, {
      event: 'payment.succeeded',
      forwardTo: `${app().origin}/shop-api/payments/webhook`,
      referenceOrderId: refusedOrderId,
    });
    expect(triggered.status).toBe(201);
    const { delivery } = await dashboardDelivery(`${sandboxUrl}/sandbox/dashboard`, refusedOrderId, 1);
    expect(delivery.attempts[0]).toMatchObject({
      status: 401,
      diagnosis: { outcome: 'refused-by-app', why: expect.stringContaining('a global guard or auth hook blocks the webhook route') },
    });
    expectAuthFix(delivery.attempts[0]?.diagnosis.fix, 'next');
    expect(app().output()).not.toContain(`shop: order ${refusedOrderId} paid`);
  });

  // Last: it moves the sandbox's clock.
  it("the README's handlers keep a declined and an expired order payable: the shopper pays each after it", async () => {
    const checkout = await postJson(`${app().origin}/payments/checkout`, { orderId: expiredOrderId });
    expect(checkout.status).toBe(201);
    const sandboxUrl = new URL(String(checkout.body.checkoutUrl)).origin;
    // Past the session's 30 minutes: the sandbox closes it, and its payment.closed reaches the handler.
    expect((await postJson(`${sandboxUrl}/sandbox/clock/advance`, { ms: 31 * 60_000 })).status).toBe(200);
    await app().waitForOutput(new RegExp(`shop: order ${expiredOrderId} failed`));
    await payOnHostedPage(`${app().origin}/payments`, expiredOrderId, app().origin);
    await app().waitForOutput(new RegExp(`shop: order ${expiredOrderId} paid by \\S+`));

    await payWithWallet(`${app().origin}/payments`, declinedOrderId, sandboxUrl, 'failed');
    await app().waitForOutput(new RegExp(`shop: order ${declinedOrderId} failed`));
    await payWithWallet(`${app().origin}/payments`, declinedOrderId, sandboxUrl);
    await app().waitForOutput(new RegExp(`shop: order ${declinedOrderId} paid by \\S+`));
  });
});
