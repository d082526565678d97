import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import type { CheckoutSessionInput } from '@paymount/core';
import { docsUrl } from '@paymount/core/internal';
import { paymentRouter } from '@paymount/express';
import { startExpressShop } from '@paymount/example-express-shop';
import { readShopConfig, type RunningShop } from '@paymount/example-shop-kit';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/accessibility';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from '../../../tools/browser-testing/chromium';
import { LogCapture } from './support/log-capture';
import { buy as buyInShop, openHostedCheckout as openSandboxCheckout } from './support/shop-pages';
import { ShopDatabases, type ShopDatabaseForTest } from './support/shop-database';

const SETTLE_TIMEOUT_MS = 15_000;
const RESULTS_DIR = fileURLToPath(new URL('../test-results/sandbox-dashboard/', import.meta.url));
/** `UPDATE_SCREENSHOTS=1` refreshes the screenshots the sandbox README shows; otherwise they go to test-results. */
const SCREENSHOTS_DIR = process.env['UPDATE_SCREENSHOTS'] === '1' ? fileURLToPath(new URL('../../../packages/sandbox/docs/', import.meta.url)) : RESULTS_DIR;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 667 };

const mode = browserTestsMode();
if (mode === 'skip') console.warn(`sandbox dashboard: browser tests skipped. ${MISSING_CHROMIUM}`);

/**
 * A merchant's Express app with a global auth middleware in front of
 * everything, paymount's routes included (the silent refusal of the issue),
 * until `exemptPayments()` mounts the exemption its README shows.
 */
async function startGuardedApp(running: RunningShop) {
  const sandbox = running.sandbox!;
  let paymentsExempt = false;
  const app = express();
  app.use((req, res, next) => {
    if (paymentsExempt && req.path.startsWith('/payments/')) return next();
    if (req.headers.authorization === 'Bearer staff') return next();
    // An Express app's own auth answer (x-powered-by: Express tells the sandbox which framework refused).
    res.status(403).json({ error: 'staff only' });
  });
  const payments = paymentRouter({ client: sandbox.clientOptions(), resolveOrder: () => null, webhook: { secret: sandbox.webhookSecret }, clock: sandbox.clock, logger: false });
  app.use('/payments', payments);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments/webhook`,
    exemptPayments: () => void (paymentsExempt = true),
    close: async () => {
      await payments.paymentRoutes.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

describe.skipIf(mode === 'skip')('the sandbox dashboard and hosted checkout in headless Chromium', () => {
  const logs = new LogCapture();
  let running: RunningShop | undefined;
  let orders: ShopDatabaseForTest | undefined;
  let browser: Browser | undefined;

  const shop = () => {
    if (!running?.sandbox) throw new Error('the shop did not start');
    return { ...running, sandbox: running.sandbox };
  };

  beforeAll(async () => {
    if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
    orders = await new ShopDatabases().open('PGlite');
    running = await startExpressShop({
      config: { ...readShopConfig({}), port: 0 },
      dataDir: orders.dataDir,
      logger: logs,
      sandbox: { webhookRetryDelaysMs: [50, 100] },
    });
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    orders?.remove();
  });

  /** A fresh context (axe is injected, so the pages' CSP is bypassed) with the viewport given. */
  async function withContext(viewport: { width: number; height: number }, steps: (context: BrowserContext) => Promise<void>): Promise<void> {
    if (!browser) throw new Error('the browser did not start');
    const context = await browser.newContext({ viewport, bypassCSP: true });
    try {
      await steps(context);
    } catch (error) {
      mkdirSync(RESULTS_DIR, { recursive: true });
      for (const [i, page] of context.pages().entries()) {
        await page.screenshot({ path: `${RESULTS_DIR}failure-${i}.png`, fullPage: true }).catch(() => undefined);
      }
      throw error;
    } finally {
      await context.close();
    }
  }

  const buy = (page: Page, sku: string) => buyInShop(page, shop().url, sku);
  const openHostedCheckout = (page: Page) => openSandboxCheckout(page, shop().sandbox.url);

  function deliveryOf(dashboard: Page, orderId: string, state: string): Locator {
    return dashboard.locator(`article.delivery[data-state="${state}"]`, { hasText: orderId });
  }

  let sessions = 0;

  /** Opens the hosted checkout of a session created through a paymount client, as a merchant's own code may create one. */
  async function openSession(page: Page, input: Omit<CheckoutSessionInput, 'referenceOrderId'>): Promise<{ close(): Promise<void> }> {
    const { sandbox } = shop();
    const { paymentRoutes } = paymentRouter({ client: sandbox.clientOptions(), resolveOrder: () => null, webhook: { secret: sandbox.webhookSecret }, logger: false });
    sessions += 1;
    const session = await paymentRoutes.client.createCheckoutSession({ referenceOrderId: `order-page-${Date.now()}-${sessions}`, ...input });
    await page.goto(session.checkoutUrl);
    return { close: () => paymentRoutes.close() };
  }

  /** A hosted checkout of two items with tax and a surcharge. */
  const sessionWithSummary = (page: Page) =>
    openSession(page, {
      description: 'Two mugs and a notebook',
      amount: { orderAmount: 3800, taxAmount: 304, surchargeAmount: 150, priceCurrency: 'USD' },
      productList: [
        { name: 'Mug', amount: 1250, num: 2 },
        { name: 'Dot-grid notebook', amount: 1300, num: 1 },
      ],
      merchantReturnUrl: `${shop().url}/return`,
    });

  async function expectAccessible(page: Page): Promise<void> {
    expect(await accessibilityViolations(page)).toEqual([]);
  }

  it('a wallet payment in the Express shop appears live with its delivery; Resend reaches the shop and is answered as a duplicate', async () => {
    await withContext(DESKTOP, async (context) => {
      const dashboard = await context.newPage();
      await dashboard.goto(shop().sandbox.dashboardUrl);
      let navigations = 0;
      dashboard.on('framenavigated', (frame) => void (frame === dashboard.mainFrame() && (navigations += 1)));

      const shopPage = await context.newPage();
      const orderId = await buy(shopPage, 'mug');
      await shopPage.waitForSelector('#wallet-pay:not([disabled])');
      await shopPage.click('#wallet-pay');
      await shopPage.waitForSelector('#order-status[data-status="paid"]', { timeout: SETTLE_TIMEOUT_MS });

      // The dashboard, never reloaded, shows the payment and its delivery as they happen.
      const delivered = deliveryOf(dashboard, orderId, 'delivered');
      await delivered.waitFor({ timeout: SETTLE_TIMEOUT_MS });
      expect(navigations).toBe(0);
      expect(await delivered.textContent()).toContain('payment.succeeded');
      expect(await delivered.locator('li.attempt').getAttribute('data-outcome')).toBe('delivered');
      expect(await delivered.locator('li.attempt').textContent()).toContain("paymount's webhook route answered 200 OK");
      const payment = dashboard.locator('#payments tr', { hasText: orderId });
      await payment.waitFor();
      expect(await payment.getAttribute('data-status')).toBe('S');
      expect(await payment.textContent()).toContain('$12.50');

      await dashboard.fill('#filter-order-id', orderId);
      await dashboard.click('#filter');
      await dashboard.waitForURL(`**/sandbox/dashboard?orderId=${orderId}`);
      const shown = await dashboard.locator('article.delivery').allTextContents();
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((text) => text.includes(orderId))).toBe(true);

      const deliveryId = await deliveryOf(dashboard, orderId, 'delivered').first().getAttribute('data-delivery-id');
      await dashboard.click(`button[aria-label="Resend delivery ${deliveryId}"]`);
      await dashboard.waitForURL(`**/sandbox/dashboard?orderId=${orderId}&done=resent`);
      const resend = dashboard.locator('article.delivery', { hasText: `resend of ${deliveryId}` });
      await resend.locator('li.attempt[data-outcome="duplicate"]').waitFor({ timeout: SETTLE_TIMEOUT_MS });
      expect(await resend.textContent()).toContain('a duplicate of an event already handled, no handler ran again');
      const resendId = await resend.getAttribute('data-delivery-id');
      // The redelivery reached the shop's webhook route, which logged it as the duplicate it answered.
      expect(logs.lines.some((line) => line.includes('duplicate webhook delivery ignored') && line.includes(String(resendId)))).toBe(true);
      expect((await shop().shop.orders.get(orderId))?.status).toBe('paid');

      const html = await dashboard.content();
      for (const secret of [shop().sandbox.testApiKey, shop().sandbox.productionApiKey, shop().sandbox.webhookSecret]) expect(html).not.toContain(secret);
      await expectAccessible(dashboard);
    });
  });

  it("an app whose global auth middleware answers 403 before paymount's route: the dashboard says so, with the fix, and the fixed app takes the resend", async () => {
    const app = await startGuardedApp(shop());
    try {
      await withContext(DESKTOP, async (context) => {
        const dashboard = await context.newPage();
        await dashboard.goto(shop().sandbox.dashboardUrl);
        await dashboard.selectOption('#trigger-event', 'payment.succeeded');
        await dashboard.fill('#trigger-forward-to', app.webhookUrl);
        await dashboard.fill('#trigger-order-id', 'order-guarded-1');
        await dashboard.click('#trigger');
        await dashboard.waitForURL('**/sandbox/dashboard?done=triggered');

        const failed = deliveryOf(dashboard, 'order-guarded-1', 'failed');
        await failed.waitFor({ timeout: SETTLE_TIMEOUT_MS });
        const attempts = failed.locator('li.attempt[data-outcome="refused-by-app"]');
        expect(await attempts.count()).toBe(3);
        const first = attempts.first();
        expect(await first.locator('.why').textContent()).toBe(
          "your app answered 403 Forbidden before paymount's webhook route ran: a global guard or auth hook blocks the webhook route",
        );
        const fix = await first.locator('.fix').textContent();
        expect(fix).toContain('Express, mount the payment router before the auth middleware');
        // The answer is Express's, so no other framework's way out is offered.
        expect(fix).not.toContain('NestJS');
        expect(await first.locator('.fix a').getAttribute('href')).toBe(docsUrl('deliveryFailures', 'app-auth'));
        await first.locator('summary').click();
        expect(await first.locator('pre').textContent()).toBe('{"error":"staff only"}');
        await expectAccessible(dashboard);
        await dashboard.screenshot({ path: `${SCREENSHOTS_DIR}dashboard.png` });

        app.exemptPayments();
        const deliveryId = await failed.getAttribute('data-delivery-id');
        await dashboard.click(`button[aria-label="Resend delivery ${deliveryId}"]`);
        const resend = dashboard.locator('article.delivery', { hasText: `resend of ${deliveryId}` });
        await resend.locator('li.attempt[data-outcome="delivered"]').waitFor({ timeout: SETTLE_TIMEOUT_MS });
      });
    } finally {
      await app.close();
    }
  });

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`hosted checkout at ${viewport.width}×${viewport.height} (${name}): open, paid and expired pages pass axe-core; Expire on the dashboard closes a session`, async () => {
      await withContext(viewport, async (context) => {
        const page = await context.newPage();
        // A session with line items, tax and a surcharge, as a merchant's own code may create one.
        const summary = await sessionWithSummary(page);
        expect(await page.textContent('#subtotal')).toBe('$38.00');
        expect(await page.locator('tfoot tr', { hasText: 'Tax' }).textContent()).toBe('Tax$3.04');
        expect(await page.locator('tfoot tr', { hasText: 'Surcharge' }).textContent()).toBe('Surcharge$1.50');
        expect(await page.textContent('#total')).toBe('$42.54');
        await expectAccessible(page);
        await page.screenshot({ path: `${SCREENSHOTS_DIR}hosted-checkout-${name}.png`, fullPage: true });
        await summary.close();

        const orderId = await buy(page, 'notebook');
        await openHostedCheckout(page);
        const checkoutUrl = page.url();
        expect(await page.textContent('h1')).toBe('Pay Express shop');
        expect(await page.textContent('#total')).toBe('$18.90');
        expect(await page.textContent('#cancel')).toBe('Cancel and return to Express shop');
        // Usable on a phone: nothing wider than the screen, the wallet button in full view without scrolling sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        const button = await page.locator('#pay').boundingBox();
        expect(button && button.x >= 0 && button.x + button.width <= viewport.width && button.height >= 44).toBe(true);
        await expectAccessible(page);

        await page.click('#pay');
        await page.waitForURL(`${shop().url}/return?orderId=${orderId}**`, { timeout: SETTLE_TIMEOUT_MS });
        const paid = await page.goto(checkoutUrl);
        expect(paid?.status()).toBe(409);
        expect(await page.getAttribute('[data-state]', 'data-state')).toBe('paid');
        await expectAccessible(page);

        const second = await buy(page, 'mug');
        await openHostedCheckout(page);
        const abandoned = page.url();
        const dashboard = await context.newPage();
        await dashboard.goto(`${shop().sandbox.dashboardUrl}?orderId=${second}`);
        await dashboard.click(`#sessions tr[data-state="open"] button`);
        await dashboard.waitForURL(`**/sandbox/dashboard?orderId=${second}&done=expired`);
        expect(await dashboard.getAttribute(`#sessions tr[data-session-id]`, 'data-state')).toBe('expired');
        const expired = await page.goto(abandoned);
        expect(expired?.status()).toBe(410);
        expect(await page.textContent('#notice')).toMatch(/expired/);
        expect(await page.getAttribute('#return', 'href')).toContain(`${shop().url}/return?orderId=${second}`);
        await expectAccessible(page);
        if (name === 'phone') await expectAccessible(dashboard);
      });
    });

    it(`hosted checkout at ${viewport.width}×${viewport.height} (${name}): the form-error, failed and cancelled pages pass axe-core`, async () => {
      await withContext(viewport, async (context) => {
        const page = await context.newPage();
        // No merchantReturnUrl: the outcome is shown on the sandbox's own page rather than in the shop.
        const withAddress = await openSession(page, {
          description: 'A mug, billed to an address',
          amount: { orderAmount: 1250, priceCurrency: 'USD' },
          collectBillingAddress: true,
        });
        await page.fill('input[name="billing_name"]', 'Ada Lovelace');
        await page.fill('input[name="billing_line1"]', '12 St James Square');
        await page.fill('input[name="billing_city"]', 'London');
        await page.fill('input[name="billing_postalCode"]', 'SW1Y 4JH');
        // Filled, so the browser submits it; a country the service refuses, so the page comes back with the error.
        await page.fill('input[name="billing_country"]', 'GBR');
        const refused = page.waitForResponse((res) => res.url().endsWith('/pay'));
        await page.click('#pay');
        expect((await refused).status()).toBe(400);
        expect(await page.textContent('[role="alert"]')).toBe('Please fill in: billing country.');
        expect(await page.inputValue('input[name="billing_city"]')).toBe('London');
        await expectAccessible(page);
        await withAddress.close();

        for (const [button, state, notice, orderAmount] of [
          // 8888 is a sandbox amount the card is declined for.
          ['#pay', 'failed', 'Your payment failed: card declined.', 8888],
          ['#cancel', 'cancelled', 'You cancelled the payment.', 1250],
        ] as const) {
          const session = await openSession(page, { description: `A mug, ${state}`, amount: { orderAmount, priceCurrency: 'USD' } });
          await page.click(button);
          await page.waitForSelector(`[data-state="${state}"]`);
          expect(await page.textContent('#notice')).toBe(notice);
          await expectAccessible(page);
          await session.close();
        }
      });
    });
  }
});
