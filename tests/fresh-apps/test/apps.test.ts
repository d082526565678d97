import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { payOnHostedPage } from '../../readmes/test/support/quick-start';
import { FRESH_APPS } from '../src/apps';
import { appForSuite, settledDeliveries } from './running-app';

const run = promisify(execFile);
const { dir, compiled } = inject('freshProject');

describe.each(FRESH_APPS)('the $readme README, put together as written in a fresh app', (app) => {
  const appDir = join(dir, app.readme);

  it(`compiles with tsc under ${app.setting}, strict, skipLibCheck off`, () => {
    // Other packages' declaration errors (see src/compile.ts) are theirs; the README's code and paymount's must be clean.
    expect(compiled[app.readme]?.errors).toEqual([]);
  });

  describe.runIf(app.main !== undefined)('started with node, in development', () => {
    const orderId = `fresh-${app.readme}-1`;
    const running = appForSuite(appDir, app.main!, orderId);

    it('takes a hosted checkout paid on the sandbox page; its webhook handler marks the order paid', async () => {
      await payOnHostedPage(`${running().origin}/payments`, orderId, running().origin);
      await running().waitForOutput(new RegExp(`shop: order ${orderId} paid by \\S+`));
      const settled = await settledDeliveries(running().announcement.sandboxUrl, orderId);
      expect(settled).toEqual([
        expect.objectContaining({ event: 'payment.succeeded', state: 'delivered', url: `${running().origin}/payments/webhook` }),
      ]);
      if (app.orderPage) {
        const page = await fetch(`${running().origin}/orders/${orderId}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain(`Order ${orderId}`);
      }
    });

    it.runIf(app.testingBlock)("runs its 'Testing your handlers' block with the printed secret: answered 200", async () => {
      const { stdout } = await run(process.execPath, [join(appDir, 'dist/test-webhook.js')], {
        cwd: appDir,
        env: { ...process.env, PORT: new URL(running().origin).port, PAYMENT_WEBHOOK_SECRET: running().announcement.webhookSecret },
      });
      expect(stdout.trim()).toBe('200');
    });

    it('runs the trigger command the sandbox printed, at its webhook URL: delivered, exit 0', async () => {
      const line = running().announcement.triggerLine.replace('<your webhook URL>', `${running().origin}/payments/webhook`);
      const [npx, command, ...args] = line.split(' ');
      expect([npx, command]).toEqual(['npx', 'paymount-sandbox']);
      // What `npx paymount-sandbox ...` runs in the app's project: the package's bin.
      const { stdout } = await run(join(dir, 'node_modules/.bin/paymount-sandbox'), args, { cwd: appDir });
      expect(stdout).toMatch(/delivered/);
      expect(stdout).toMatch(/\b200\b/);
    });
  });
});
