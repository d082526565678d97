import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { payOnHostedPage, postJson } from '../../readmes/test/support/quick-start';
import { FRESH_APPS } from '../src/apps';
import { APP_API_TOKEN, waitFor } from '../src/run';
import { appForSuite } from './running-app';

const { dir } = inject('freshProject');

interface AttemptView {
  status?: number;
  diagnosis: { outcome: string; why: string; fix?: string };
}

/** The dashboard's data for one order, once its delivery has `attempts` answered attempts. */
async function dashboardDelivery(dashboardUrl: string, orderId: string, attempts: number) {
  let seen: unknown;
  return waitFor(
    async () => {
      const res = await fetch(`${dashboardUrl}/data?orderId=${orderId}`);
      const { snapshot, html } = (await res.json()) as { snapshot: { deliveries: { attempts: AttemptView[] }[] }; html: unknown };
      seen = snapshot.deliveries;
      const delivery = snapshot.deliveries[0];
      const answered = delivery?.attempts.filter((attempt) => attempt.diagnosis.outcome !== 'pending').length ?? 0;
      return delivery && answered >= attempts ? { delivery, html: JSON.stringify(html) } : undefined;
    },
    () => `no delivery with ${attempts} attempts for ${orderId}: ${JSON.stringify(seen)}`,
    20_000,
  );
}

/** Where the diagnosis's fix names each framework's way out. */
const FIX: Record<string, string> = {
  nestjs: 'NestJS, controllerDecorators',
  fastify: 'Fastify, skip the onRequest hook',
  express: 'Express, mount the payment router before the auth middleware',
  koa: 'Koa, use the payment middleware before the auth middleware',
  hono: 'Hono, wrap the auth middleware in except(',
};

describe.each(FRESH_APPS.filter((app) => app.guard !== undefined))('the $readme app with an app-wide guard or auth hook', (app) => {
  const appDir = join(dir, app.readme);
  const fix = FIX[app.readme];
  if (!fix) throw new Error(`no fix wording for ${app.readme} in FIX`);

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
        diagnosis: {
          outcome: 'refused-by-app',
          why: expect.stringContaining('a global guard or auth hook blocks the webhook route'),
          fix: expect.stringContaining(fix),
        },
      });
      // On the page, too.
      expect(html).toContain('a global guard or auth hook blocks the webhook route');
      expect(html).toContain(fix);
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
