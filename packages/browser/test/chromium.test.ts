import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { bundlePage, serveOrderPage } from '../../../tools/browser-testing/pages';
import { describeInChromium, payOnSandboxPage, SHOWN_WITHIN_MS } from '../../../tools/browser-testing/payment-pages';
import { startShopApp } from '../../../tools/browser-testing/shop-app';
import { freshOrderId, repriceOrder } from '../../../tools/conformance/fixtures';

async function startShop() {
  const script = await bundlePage(new URL('pages/shop-page.ts', import.meta.url).pathname);
  return startShopApp((app, { sandboxUrl }) =>
    serveOrderPage(app, {
      sandboxUrl,
      script,
      content: [
        '<button id="wallet" type="button">Pay with wallet</button>',
        '<button id="checkout" type="button">Pay on the hosted page</button>',
        '<output id="ready"></output> <output id="result"></output> <output id="status"></output> <output id="csp-violations"></output>',
      ].join('\n'),
    }),
  );
}

describeInChromium('@paymount/browser in headless Chromium, on a page under a strict CSP', startShop, (running) => {
  const openOrder = (orderId: string) => {
    const { app, pages } = running();
    return pages.open(`${app.url}/?orderId=${orderId}`);
  };

  const shown = (page: Page, id: string, text: string) =>
    page.waitForFunction(([where, expected]) => document.getElementById(where!)?.textContent?.includes(expected!), [id, text], { timeout: SHOWN_WITHIN_MS });

  it('a real click pays with the test wallet the button loaded, and the page follows the order to succeeded', async () => {
    const orderId = freshOrderId();
    const page = await openOrder(orderId);
    await shown(page, 'ready', 'true');
    await page.click('#wallet');
    await shown(page, 'result', '"outcome":"paid"');
    await shown(page, 'status', 'succeeded');
    expect(await page.isDisabled('#wallet')).toBe(true);
    expect(await page.textContent('#csp-violations')).toBe('');
    await running().pages.evidence.collectStorage(page.context(), page);
  });

  it('a declined payment shows its reason and leaves the button to pay again', async () => {
    const orderId = freshOrderId();
    repriceOrder(orderId, { orderAmount: 8888, priceCurrency: 'USD' });
    const page = await openOrder(orderId);
    await shown(page, 'ready', 'true');
    await page.click('#wallet');
    await shown(page, 'result', '{"outcome":"declined","orderId":"' + orderId + '","reason":"CARD_DECLINED"}');
    expect(await page.isEnabled('#wallet')).toBe(true);
    expect(await page.textContent('#csp-violations')).toBe('');
    await running().pages.evidence.collectStorage(page.context(), page);
  });

  it("the hosted checkout's form post goes to the sandbox's page, and back to the order, paid", async () => {
    const { app } = running();
    const orderId = freshOrderId();
    const page = await openOrder(orderId);
    await page.click('#checkout');
    await payOnSandboxPage(page, app.sandboxUrl);
    // The service adds its own query parameters to the return URL.
    await page.waitForURL(`${app.url}/?orderId=${orderId}**`, { timeout: SHOWN_WITHIN_MS });
    await shown(page, 'status', 'succeeded');
  });

  it('no CSP violation on any page, and no wallet token in a URL, an answer, the console or the storage', () => {
    const { pages } = running();
    expect(pages.evidence.walletTokens.size).toBeGreaterThanOrEqual(2);
    expect(pages.problems()).toEqual([]);
  });
});
