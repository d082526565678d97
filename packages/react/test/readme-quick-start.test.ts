import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from '../../../tools/browser-testing/chromium';
import { BrowserEvidence, leaks } from '../../../tools/browser-testing/evidence';
import { bundlePage, serveOrderPage } from '../../../tools/browser-testing/pages';
import { startShopApp, type ShopApp } from '../../../tools/browser-testing/shop-app';
import { tsxBlocks } from '../../../tools/browser-testing/tsx-blocks';
import { freshOrderId, repriceOrder } from '../../../tools/conformance/fixtures';

const mode = browserTestsMode();
if (mode === 'skip') console.warn(`@paymount/react README: Chromium tests skipped. ${MISSING_CHROMIUM}`);

const SHOWN_WITHIN_MS = 60_000;

/** The app around the README's component: the order page renders it with the order's id and the sandbox's URL. */
const APP = `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { OrderPayment } from './OrderPayment';

const { orderId = '', sandboxUrl } = document.body.dataset;
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <OrderPayment orderId={orderId} sandboxUrl={sandboxUrl} />
  </StrictMode>,
);
`;

describe.skipIf(mode === 'skip')("the README's quick start, as written, in a React app in headless Chromium", () => {
  let shop: ShopApp;
  let browser: Browser;
  let evidence: BrowserEvidence;
  // Inside the package, so the app's imports (react, @paymount/react) resolve as in a reader's project.
  const cache = new URL('../node_modules/.cache/', import.meta.url).pathname;
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'readme-'));

  beforeAll(async () => {
    if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
    const component = tsxBlocks(new URL('../README.md', import.meta.url).pathname).find((block) => block.fileName === 'OrderPayment.tsx');
    if (!component) throw new Error('the README has no OrderPayment.tsx block');
    writeFileSync(join(dir, 'OrderPayment.tsx'), component.code);
    writeFileSync(join(dir, 'main.tsx'), APP);
    const script = await bundlePage(join(dir, 'main.tsx'));
    shop = await startShopApp((app, { sandboxUrl }) => serveOrderPage(app, { sandboxUrl, script, content: '<div id="root"></div>' }));
    evidence = new BrowserEvidence(`${shop.url}/payments/wallet/pay`, `${shop.fixture.sandbox.url}/sandbox/wallet-token`);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function payOrder(orderId: string): Promise<Page> {
    const context = await browser.newContext();
    evidence.record(context);
    const page = await context.newPage();
    await page.goto(`${shop.url}/?orderId=${orderId}`);
    await page.click('button:enabled');
    return page;
  }

  const said = (page: Page, text: string) =>
    page.waitForFunction((expected) => document.querySelector('[role="status"]')?.textContent === expected, text, { timeout: SHOWN_WITHIN_MS });

  it('pays with the wallet button', async () => {
    const page = await payOrder(freshOrderId());
    await said(page, 'Paid. Thank you!');
    await evidence.collectStorage(page.context(), page);
  });

  it('says why a declined payment charged nothing', async () => {
    const orderId = freshOrderId();
    repriceOrder(orderId, { orderAmount: 8888, priceCurrency: 'USD' });
    const page = await payOrder(orderId);
    await said(page, 'The payment was declined (CARD_DECLINED); nothing was charged.');
  });

  it('leaks no wallet token and breaks no CSP rule', () => {
    expect(evidence.walletTokens.size).toBe(2);
    const tokens = evidence.tokenFingerprints().map((value) => ({ name: 'wallet token', value }));
    expect(leaks(evidence.traces, tokens)).toEqual([]);
    expect(evidence.traces.filter((trace) => trace.where === 'page error' || trace.text.includes('Content Security Policy'))).toEqual([]);
  });
});
