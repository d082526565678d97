import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { payOnHostedPage, postJson } from '../../readmes/test/support/quick-start';
import { FRESH_APPS } from '../src/apps';
import { APP_API_TOKEN } from '../src/run';
import { appForSuite, dashboardDelivery, expectAuthFix } from './running-app';

const { dir } = inject('freshProject');

describe.each(FRESH_APPS.filter((app) => app.guard !== undefined))('the $readme app with an app-wide guard or auth hook', (app) => {
  const appDir = join(dir, app.readme);

  describe('in front of the webhook', () => {
    const orderId = `fresh-${app.readme}-guarded`;
    const running = appForSuite(appDir, 'guarded-main.js', orderId);

    it("refuses the webhook before paymount runs, and the sandbox dashboard says it was the app's guard, with the fix", async () => {
      const triggered = await postJson(`${running().announcement.sandboxUrl}/sandbox/trigger`, {
        event: 'payment.succeeded',
        forwardTo: `${running().origin}/payments/webhook`,
        referenceOrderId: orderId,
      });
      expect(triggered.status).toBe(201);
      const { delivery, html } = await dashboardDelivery(running().announcement.dashboardUrl, orderId, 1);
      expect(delivery.attempts[0]).toMatchObject({
        status: expect.toBeOneOf([401, 403]),
        diagnosis: { outcome: 'refused-by-app', why: expect.stringContaining('a global guard or auth hook blocks the webhook route') },
      });
      // This framework's way out first; when the answer is surely its, no other framework's.
      expectAuthFix(delivery.attempts[0]?.diagnosis.fix, app.readme);
      // On the page, too.
      expect(html).toContain('a global guard or auth hook blocks the webhook route');
      expectAuthFix(/<p class=\\"fix\\"><strong>Fix:<\/strong> ([^<]*)/.exec(html)?.[1], app.readme);
      // And in the app's own console, where the sandbox runs.
      await running().waitForOutput(/attempt 1 failed: your app answered 40[13] \w+ before paymount's webhook route ran/);
      expect(running().output()).not.toContain(`shop: order ${orderId} paid`);
    });
  });

  describe(`with the README's exemption (${app.guard?.section})`, () => {
    const orderId = `fresh-${app.readme}-exempt`;
    const running = appForSuite(appDir, 'exempt-main.js', orderId);

    const signedIn = app.guard?.checkoutSignedIn === true;
    it(`takes a hosted checkout ${signedIn ? "with the app's credentials (the block keeps it behind the auth)" : 'without credentials'}, and the webhook goes through to the handler`, async () => {
      await payOnHostedPage(`${running().origin}/payments`, orderId, running().origin, signedIn ? { authorization: `Bearer ${APP_API_TOKEN}` } : {});
      await running().waitForOutput(new RegExp(`shop: order ${orderId} paid by \\S+`));
      const { delivery } = await dashboardDelivery(running().announcement.dashboardUrl, orderId, 1);
      expect(delivery.attempts.map((attempt) => attempt.diagnosis.outcome)).toEqual(['delivered']);
    });

    it('opens nothing else: an unsigned delivery is refused by paymount\'s webhook route, and no handler runs', async () => {
      const res = await fetch(`${running().origin}/payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-paymount-route')).toBe('webhook');
      expect(await res.json()).toMatchObject({ error: { code: 'WEBHOOK_MISSING_HEADER' } });
    });

    it.runIf(app.guard?.guardsEveryPath === true)("keeps the app's auth on its other paths: refused without the app's token, let through with it", async () => {
      expect((await fetch(`${running().origin}/account`)).status).toBe(401);
      expect((await fetch(`${running().origin}/account`, { headers: { authorization: `Bearer ${APP_API_TOKEN}` } })).status).toBe(404);
    });
  });
});
