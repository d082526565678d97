import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { bundlePage, serveOrderPage } from '../../../tools/browser-testing/pages';
import { describeInChromium, payOnSandboxPage, SHOWN_WITHIN_MS } from '../../../tools/browser-testing/payment-pages';
import { startShopApp } from '../../../tools/browser-testing/shop-app';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { readmeBlocks } from '../../../tools/readme-blocks';

/** The page the quick start says your order page renders. */
const ORDER_PAGE = `<button id="wallet-pay" type="button">Pay with wallet</button>
<button id="checkout" type="button">Pay on the hosted page</button>
<p id="payment-message" role="status"></p>`;

const dir = mkdtempSync(join(tmpdir(), 'paymount-browser-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startShop() {
  const quickStart = readmeBlocks('browser', new URL('../README.md', import.meta.url).pathname).find((block) => block.section === 'Quick start');
  if (!quickStart) throw new Error('the README has no Quick start block');
  writeFileSync(join(dir, 'main.ts'), quickStart.code);
  const script = await bundlePage(join(dir, 'main.ts'));
  return startShopApp((app, { sandboxUrl }) => serveOrderPage(app, { sandboxUrl, script, content: ORDER_PAGE }));
}

describeInChromium("the README's quick start, as written, on an order page in headless Chromium", startShop, (running) => {
  const openOrder = (orderId: string) => {
    const { app, pages } = running();
    return pages.open(`${app.url}/?orderId=${orderId}`);
  };

  const said = (page: Page, text: string) =>
    page.waitForFunction((expected) => document.getElementById('payment-message')?.textContent === expected, text, { timeout: SHOWN_WITHIN_MS });

  it('pays with the wallet button', async () => {
    const page = await openOrder(freshOrderId());
    await page.click('#wallet-pay:enabled');
    await said(page, 'Paid. Thank you!');
    await running().pages.evidence.collectStorage(page.context(), page);
  });

  it('pays on the hosted page, and the order page says so once the order is paid', async () => {
    const { app } = running();
    const orderId = freshOrderId();
    const page = await openOrder(orderId);
    await page.click('#checkout');
    await payOnSandboxPage(page, app.sandboxUrl);
    // The service adds its own query parameters to the return URL.
    await page.waitForURL(`${app.url}/?orderId=${orderId}**`, { timeout: SHOWN_WITHIN_MS });
    await said(page, 'Paid. Thank you!');
  });

  it('leaks no wallet token and breaks no CSP rule', () => {
    const { pages } = running();
    expect(pages.evidence.walletTokens.size).toBe(1);
    expect(pages.problems()).toEqual([]);
  });
});
