import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bundlePage, serveOrderPage } from '../../../tools/browser-testing/pages';
import { describeInChromium, SHOWN_WITHIN_MS } from '../../../tools/browser-testing/payment-pages';
import { removeButtonWhileConfigHeld } from '../../../tools/browser-testing/removed-while-held';
import { startShopApp } from '../../../tools/browser-testing/shop-app';
import { freshOrderId, repriceOrder } from '../../../tools/conformance/fixtures';

// React's development build is where StrictMode mounts, unmounts and mounts every effect again.
describe.each(['development', 'production'] as const)('in StrictMode, React %s build', (build) => {
  async function startShop() {
    const script = await bundlePage(new URL('pages/react-page.tsx', import.meta.url).pathname, build);
    return startShopApp((app, { sandboxUrl }) => serveOrderPage(app, { sandboxUrl, script, content: '<div id="root"></div>' }));
  }

describeInChromium('<WalletButton /> in headless Chromium under a strict CSP', startShop, (running) => {
  /** Opens the order's page; counts the wallet requests it sends to the routes. */
  async function openOrder(orderId: string): Promise<{ page: Page; configs: () => number; payments: () => number }> {
    const { app, pages } = running();
    const page = await pages.open('about:blank');
    let configs = 0;
    let payments = 0;
    page.on('request', (request) => {
      if (request.url().startsWith(`${app.mount}/wallet/config`)) configs += 1;
      if (request.url() === `${app.mount}/wallet/pay`) payments += 1;
    });
    await page.goto(`${app.url}/?orderId=${orderId}`);
    return { page, configs: () => configs, payments: () => payments };
  }

  const shown = (page: Page, id: string, text: string) =>
    page.waitForFunction(([where, expected]) => document.getElementById(where!)?.textContent === expected, [id, text], { timeout: SHOWN_WITHIN_MS });

  it('a real click pays once: one listener, one onReady, one onResult, whatever StrictMode mounted', async () => {
    const orderId = freshOrderId();
    const { page, configs, payments } = await openOrder(orderId);
    await shown(page, 'ready', JSON.stringify(['true']));
    expect(configs()).toBe(build === 'development' ? 2 : 1);
    await page.click('#wallet');
    await page.waitForFunction(() => document.getElementById('results')?.textContent !== '[]', undefined, { timeout: SHOWN_WITHIN_MS });
    const results = JSON.parse((await page.textContent('#results')) ?? '') as unknown[];
    expect(results).toEqual([{ outcome: 'paid', orderId, transactionId: expect.any(String) }]);
    expect(payments()).toBe(1);
    expect(await page.isDisabled('#wallet')).toBe(true);
    // Re-renders (each onReady and onResult set state) never remounted the button.
    expect(configs()).toBe(build === 'development' ? 2 : 1);
    await running().pages.evidence.collectStorage(page.context(), page);
  });

  it('a declined payment is reported with its reason and the button is enabled again', async () => {
    const orderId = freshOrderId();
    repriceOrder(orderId, { orderAmount: 8888, priceCurrency: 'USD' });
    const { page } = await openOrder(orderId);
    await shown(page, 'ready', JSON.stringify(['true']));
    await page.click('#wallet');
    await shown(page, 'results', JSON.stringify([{ outcome: 'declined', orderId, reason: 'CARD_DECLINED' }]));
    expect(await page.isEnabled('#wallet')).toBe(true);
    await running().pages.evidence.collectStorage(page.context(), page);
  });

  it('a button removed before its wallet request came back reports nothing and throws nothing', async () => {
    const { app, pages } = running();
    const page = await pages.open('about:blank');
    await removeButtonWhileConfigHeld(page, `${app.url}/?orderId=${freshOrderId()}`);
    expect(await page.textContent('#ready')).toBe('[]');
    expect(await page.textContent('#results')).toBe('[]');
  });

  it('no wallet token in a URL, an answer, the console or the storage, and no CSP violation', () => {
    const { pages } = running();
    expect(pages.evidence.walletTokens.size).toBe(2);
    expect(pages.problems()).toEqual([]);
  });
});
});
