import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, inject, it } from 'vitest';
import { payOnHostedPage, postJson } from '../../readmes/test/support/quick-start';
import { FRESH_APPS } from '../src/apps';
import { appForSuite } from './running-app';

const { dir } = inject('freshProject');

interface AttemptView {
  status?: number;
  diagnosis: { outcome: string; why: string; fix?: string };
}

/** The dashboard's data for one order, once its delivery has `attempts` attempts. */
async function dashboardDelivery(dashboardUrl: string, orderId: string, attempts: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await fetch(`${dashboardUrl}/data?orderId=${orderId}`);
    const { snapshot, html } = (await res.json()) as { snapshot: { deliveries: { attempts: AttemptView[] }[] }; html: unknown };
    const delivery = snapshot.deliveries[0];
    if (delivery && delivery.attempts.filter((attempt) => attempt.diagnosis.outcome !== 'pending').length >= attempts) {
      return { delivery, html: JSON.stringify(html) };
    }
    if (Date.now() > deadline) throw new Error(`no delivery with ${attempts} attempts for ${orderId}: ${JSON.stringify(snapshot.deliveries)}`);
    await sleep(200);
  }
}

/** Where the diagnosis's fix names each framework's way out. */
const FIX: Record<string, string> = {
  nestjs: 'NestJS, controllerDecorators',
  fastify: 'Fastify, skip the onRequest hook',
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

    it('takes a hosted checkout without credentials, and the webhook goes through to the handler', async () => {
      await payOnHostedPage(`${running().origin}/payments`, orderId, running().origin);
      await running().waitForOutput(new RegExp(`shop: order ${orderId} paid by \\S+`));
      const { delivery } = await dashboardDelivery(running().announcement.dashboardUrl, orderId, 1);
      expect(delivery.attempts.map((attempt) => attempt.diagnosis.outcome)).toEqual(['delivered']);
    });
  });
});
