import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from '../../../tools/browser-testing/chromium';
import { BrowserEvidence, leaks } from '../../../tools/browser-testing/evidence';
import { bundlePage, serveOrderPage } from '../../../tools/browser-testing/pages';
import { startShopApp, type ShopApp } from '../../../tools/browser-testing/shop-app';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { readmeBlocks } from '../../../tools/readme-blocks';

const mode = browserTestsMode();
if (mode === 'skip') console.warn(`@paymount/browser README: Chromium tests skipped. ${MISSING_CHROMIUM}`);

const SHOWN_WITHIN_MS = 60_000;

/** The page the quick start says your order page renders. */
const ORDER_PAGE = `<button id="wallet-pay" type="button">Pay with wallet</button>
<button id="checkout" type="button">Pay on the hosted page</button>
<p id="payment-message" role="status"></p>`;

describe.skipIf(mode === 'skip')("the README's quick start, as written, on an order page in headless Chromium", () => {
  let shop: ShopApp;
  let browser: Browser;
  let evidence: BrowserEvidence;
  const dir = mkdtempSync(join(tmpdir(), 'paymount-browser-readme-'));

  beforeAll(async () => {
    if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
    const quickStart = readmeBlocks('browser', new URL('../README.md', import.meta.url).pathname).find((block) => block.section === 'Quick start');
    if (!quickStart) throw new Error('the README has no Quick start block');
    writeFileSync(join(dir, 'main.ts'), quickStart.code);
    const script = await bundlePage(join(dir, 'main.ts'));
    shop = await startShopApp((app, { sandboxUrl }) => serveOrderPage(app, { sandboxUrl, script, content: ORDER_PAGE }));
    evidence = new BrowserEvidence(`${shop.url}/payments/wallet/pay`, `${shop.fixture.sandbox.url}/sandbox/wallet-token`);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openOrder(orderId: string): Promise<Page> {
    const context = await browser.newContext();
    evidence.record(context);
    const page = await context.newPage();
    await page.goto(`${shop.url}/?orderId=${orderId}`);
    return page;
  }

  const said = (page: Page, text: string) =>
    page.waitForFunction((expected) => document.getElementById('payment-message')?.textContent === expected, text, { timeout: SHOWN_WITHIN_MS });

  it('pays with the wallet button', async () => {
    const page = await openOrder(freshOrderId());
    await page.click('#wallet-pay:enabled');
    await said(page, 'Paid. Thank you!');
    await evidence.collectStorage(page.context(), page);
  });

  it('pays on the hosted page, and the order page says so once the order is paid', async () => {
    const orderId = freshOrderId();
    const page = await openOrder(orderId);
    await page.click('#checkout');
    await page.waitForURL(`${shop.fixture.sandbox.url}/**`);
    await page.click('#pay');
    // The service adds its own query parameters to the return URL.
    await page.waitForURL(`${shop.url}/?orderId=${orderId}**`, { timeout: SHOWN_WITHIN_MS });
    await said(page, 'Paid. Thank you!');
  });

  it('leaks no wallet token and breaks no CSP rule', () => {
    expect(evidence.walletTokens.size).toBe(1);
    const tokens = evidence.tokenFingerprints().map((value) => ({ name: 'wallet token', value }));
    expect(leaks(evidence.traces, tokens)).toEqual([]);
    expect(evidence.traces.filter((trace) => trace.where === 'page error' || trace.text.includes('Content Security Policy'))).toEqual([]);
  });
});
