import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from '../../../tools/browser-testing/chromium';
import { BrowserEvidence, leaks } from '../../../tools/browser-testing/evidence';
import { startOrderService, type OrderService } from '../../next/test/support/order-service';
import { serveTestApp, type AstroServer } from './support/test-app';

const mode = browserTestsMode();
if (mode === 'skip') console.warn(`@paymount/astro: Chromium tests skipped. ${MISSING_CHROMIUM}`);

/** How long a page may take to show what the shop or the sandbox did; a limit for a hang, never a verdict. */
const SHOWN_WITHIN_MS = 60_000;

/** What a page reported, gathered by a script the browser runs before the page's own (not subject to its policy). */
declare global {
  interface Window {
    cspViolations?: string[];
    walletResults?: unknown[];
  }
}

// The guide's order page (site/guides/astro.md: src/pages/orders/[id].astro, with WalletButton.astro and the hosted checkout's form) and the
// fixture's page of several buttons, built by `astro build` and served by `node dist/server/entry.mjs` with the embedded
// sandbox, under the strict policy of the app's middleware.
describe.skipIf(mode === 'skip')('WalletButton.astro in headless Chromium, served by the production build under a strict CSP', () => {
  let server: AstroServer | undefined;
  let orderService: OrderService | undefined;
  let browser: Browser | undefined;
  let evidence: BrowserEvidence;
  const running = () => {
    if (!server || !orderService || !browser) throw new Error('the Astro server or Chromium did not start');
    return { origin: server.origin, orders: orderService.orders, browser };
  };

  beforeAll(async () => {
    if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
    orderService = await startOrderService();
    server = await serveTestApp({ PAYMOUNT_SANDBOX: '1', TEST_ORDERS_URL: orderService.url });
    // The sandbox starts in the app with its first page, and the app logs its URL, where the test wallet mints tokens.
    orderService.orders.add('astro-first-page', 100);
    expect((await fetch(`${server.origin}/orders/astro-first-page`)).status).toBe(200);
    const sandboxUrl = /embedded sandbox at (\S+): no real money moves/.exec(server.output())?.[1];
    if (!sandboxUrl) throw new Error(`the app did not log its sandbox:\n${server.output()}`);
    evidence = new BrowserEvidence(`${server.origin}/payments/wallet/pay`, `${sandboxUrl}/sandbox/wallet-token`);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await orderService?.close();
  });

  async function open(path: string): Promise<Page> {
    const context = await running().browser.newContext();
    evidence.record(context);
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => (window.cspViolations ??= []).push(`${event.violatedDirective} ${event.blockedURI}`));
      document.addEventListener('paymount:wallet-result', (event) => (window.walletResults ??= []).push(event.detail));
    });
    const page = await context.newPage();
    await page.goto(`${running().origin}${path}`);
    return page;
  }

  const shown = (page: Page, selector: string, text: string) =>
    page.waitForFunction(([where, expected]) => document.querySelector(where!)?.textContent === expected, [selector, text], { timeout: SHOWN_WITHIN_MS });

  /** The details of the page's `paymount:wallet-result` events, once there is one. */
  async function walletResults(page: Page): Promise<unknown[]> {
    await page.waitForFunction(() => (window.walletResults?.length ?? 0) > 0, undefined, { timeout: SHOWN_WITHIN_MS });
    return page.evaluate(() => window.walletResults ?? []);
  }

  async function finish(page: Page): Promise<void> {
    expect(await page.evaluate(() => window.cspViolations ?? [])).toEqual([]);
    await evidence.collectStorage(page.context(), page);
    await page.context().close();
  }

  it("a click pays: the event's detail says paid, the page says so, and the app's webhook handler marks the order paid", async () => {
    const { orders } = running();
    orders.add('astro-wallet-click', 2500);
    const page = await open('/orders/astro-wallet-click');
    await page.waitForSelector('#wallet-pay:not([disabled])', { timeout: SHOWN_WITHIN_MS });
    await page.click('#wallet-pay');
    expect(await walletResults(page)).toEqual([{ outcome: 'paid', orderId: 'astro-wallet-click', transactionId: expect.any(String) }]);
    await shown(page, '#payment-message', 'Paid. Thank you!');
    expect(await page.isDisabled('#wallet-pay')).toBe(true);
    expect(await orders.waitFor('astro-wallet-click', (order) => order.status === 'paid', SHOWN_WITHIN_MS)).toMatchObject({ transactionId: expect.any(String) });
    await page.reload();
    expect(await page.textContent('#order-status')).toBe('paid');
    await finish(page);
  });

  it('a declined payment shows its reason, and the button is enabled to pay again', async () => {
    const { orders } = running();
    orders.add('astro-wallet-declined', 8888);
    const page = await open('/orders/astro-wallet-declined');
    await page.waitForSelector('#wallet-pay:not([disabled])', { timeout: SHOWN_WITHIN_MS });
    await page.click('#wallet-pay');
    expect(await walletResults(page)).toEqual([{ outcome: 'declined', orderId: 'astro-wallet-declined', reason: 'CARD_DECLINED' }]);
    await shown(page, '#payment-message', 'The payment was declined (CARD_DECLINED); nothing was charged.');
    expect(await page.isEnabled('#wallet-pay')).toBe(true);
    expect(await orders.waitFor('astro-wallet-declined', (order) => order.status === 'failed', SHOWN_WITHIN_MS)).toMatchObject({ status: 'failed' });
    await finish(page);
  });

  it("the hosted checkout's form post goes to the sandbox's page, which pays and returns to the order page, paid", async () => {
    const { origin, orders } = running();
    orders.add('astro-hosted-form', 3100);
    const page = await open('/orders/astro-hosted-form');
    await page.click('#checkout');
    await page.waitForURL((url) => url.origin !== origin, { timeout: SHOWN_WITHIN_MS });
    await page.click('#pay');
    // The service adds its own query parameters to the return URL.
    await page.waitForURL(`${origin}/orders/astro-hosted-form**`, { timeout: SHOWN_WITHIN_MS });
    expect(await orders.waitFor('astro-hosted-form', (order) => order.status === 'paid', SHOWN_WITHIN_MS)).toMatchObject({ transactionId: expect.any(String) });
    await page.reload();
    expect(await page.textContent('#order-status')).toBe('paid');
    await finish(page);
  });

  it('several buttons on one page: each is ready, each pays its own order, and a removed one reports nothing', async () => {
    const { orders } = running();
    for (const id of ['astro-several-a', 'astro-several-b', 'astro-several-c']) orders.add(id, 1200);
    const page = await open('/several/astro-several-a/astro-several-b/astro-several-c');
    const events = async () => JSON.parse((await page.textContent('#events')) ?? '[]') as Array<{ type: string; detail: { orderId?: string } | true }>;
    await page.waitForFunction(() => JSON.parse(document.querySelector('#events')?.textContent ?? '[]').length === 3, undefined, { timeout: SHOWN_WITHIN_MS });
    expect(await events()).toEqual(Array.from({ length: 3 }, () => ({ type: 'paymount:wallet-ready', detail: true })));
    await page.click('#remove-first');
    expect(await page.$('[data-order="astro-several-a"]')).toBeNull();
    await page.click('[data-order="astro-several-c"]');
    await page.waitForFunction(() => JSON.parse(document.querySelector('#events')?.textContent ?? '[]').length === 4, undefined, { timeout: SHOWN_WITHIN_MS });
    expect((await events())[3]).toEqual({ type: 'paymount:wallet-result', detail: { outcome: 'paid', orderId: 'astro-several-c', transactionId: expect.any(String) } });
    expect(await page.isDisabled('[data-order="astro-several-c"]')).toBe(true);
    expect(await page.isEnabled('[data-order="astro-several-b"]')).toBe(true);
    expect(await orders.waitFor('astro-several-c', (order) => order.status === 'paid', SHOWN_WITHIN_MS)).toMatchObject({ status: 'paid' });
    expect((await orders.find('astro-several-b'))?.status).toBe('unpaid');
    await finish(page);
  });

  it('the pages have no inline script, and the policy is set on them', async () => {
    const { origin } = running();
    for (const path of ['/orders/astro-first-page', '/several/astro-first-page']) {
      const page = await fetch(`${origin}${path}`);
      expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self' http:\/\/127\.0\.0\.1:\d+;/);
      const scripts = [...(await page.text()).matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter(([, attributes = '', body = '']) => !/\bsrc="\/_astro\//.test(attributes) || body.trim() !== '')).toEqual([]);
    }
  });

  it('no wallet token in a URL, a document or fetch answer, the console or the storage, and no CSP violation on any page', () => {
    expect(evidence.walletTokens.size).toBe(3);
    const tokens = evidence.tokenFingerprints().map((value) => ({ name: 'wallet token', value }));
    expect(leaks(evidence.traces, tokens)).toEqual([]);
    // Chromium reports every violation on the console, the hosted page's too.
    expect(evidence.traces.filter((trace) => trace.where === 'page error' || trace.text.includes('Content Security Policy'))).toEqual([]);
  });
});
