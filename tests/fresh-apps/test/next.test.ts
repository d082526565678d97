import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, payOnHostedPage } from '../../readmes/test/support/quick-start';
import { startNextApp } from '../src/next-app';
import { APP_API_TOKEN, type RunningApp } from '../src/run';
import { settledDeliveries } from './running-app';

const { dir, nextBuild } = inject('freshProject');
const appDir = join(dir, 'next');
const orderId = 'fresh-next-1';

// The quick start's three files and the "An app-wide proxy" block as proxy.ts, built in global-setup.ts.
describe('the next README, built with next build and served by next start with PAYMOUNT_SANDBOX=1', () => {
  let running: Omit<RunningApp, 'announcement'> | undefined;
  const app = () => {
    if (!running) throw new Error(`next start did not start${nextBuild.failure ? `: ${nextBuild.failure}` : ''}`);
    return running;
  };

  beforeAll(async () => {
    if (!nextBuild.failure) running = await startNextApp(dir, appDir, await freePort(), { [orderId]: 2500 });
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

  it("the proxy as written refuses another path without the app's token (401) and lets it through with it", async () => {
    const refused = await fetch(`${app().origin}/orders/${orderId}`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'sign in first' });
    // No page at /orders in this app: through the proxy, Next.js answers its own 404.
    const through = await fetch(`${app().origin}/orders/${orderId}`, { headers: { authorization: `Bearer ${APP_API_TOKEN}` } });
    expect(through.status).toBe(404);
  });
});
