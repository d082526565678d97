import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { bundlePage, serveOrderPage } from '../../../tools/browser-testing/pages';
import { describeInChromium, SHOWN_WITHIN_MS } from '../../../tools/browser-testing/payment-pages';
import { startShopApp } from '../../../tools/browser-testing/shop-app';
import { tsxBlocks } from '../../../tools/browser-testing/tsx-blocks';
import { freshOrderId, repriceOrder } from '../../../tools/conformance/fixtures';

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

// Inside the package, so the app's imports (react, @paymount/react) resolve as in a reader's project.
const cache = new URL('../node_modules/.cache/', import.meta.url).pathname;
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startShop() {
  const component = tsxBlocks(new URL('../README.md', import.meta.url).pathname).find((block) => block.fileName === 'OrderPayment.tsx');
  if (!component) throw new Error('the README has no OrderPayment.tsx block');
  writeFileSync(join(dir, 'OrderPayment.tsx'), component.code);
  writeFileSync(join(dir, 'main.tsx'), APP);
  const script = await bundlePage(join(dir, 'main.tsx'));
  return startShopApp((app, { sandboxUrl }) => serveOrderPage(app, { sandboxUrl, script, content: '<div id="root"></div>' }));
}

describeInChromium("the README's quick start, as written, in a React app in headless Chromium", startShop, (running) => {
  async function payOrder(orderId: string): Promise<Page> {
    const { app, pages } = running();
    const page = await pages.open(`${app.url}/?orderId=${orderId}`);
    await page.click('button:enabled');
    return page;
  }

  const said = (page: Page, text: string) =>
    page.waitForFunction((expected) => document.querySelector('[role="status"]')?.textContent === expected, text, { timeout: SHOWN_WITHIN_MS });

  it('pays with the wallet button', async () => {
    const page = await payOrder(freshOrderId());
    await said(page, 'Paid. Thank you!');
    await running().pages.evidence.collectStorage(page.context(), page);
  });

  it('says why a declined payment charged nothing', async () => {
    const orderId = freshOrderId();
    repriceOrder(orderId, { orderAmount: 8888, priceCurrency: 'USD' });
    const page = await payOrder(orderId);
    await said(page, 'The payment was declined (CARD_DECLINED); nothing was charged.');
  });

  it('leaks no wallet token and breaks no CSP rule', () => {
    const { pages } = running();
    expect(pages.evidence.walletTokens.size).toBe(2);
    expect(pages.problems()).toEqual([]);
  });
});
