import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from '../../../tools/browser-testing/chromium';
import { BrowserEvidence, leaks } from '../../../tools/browser-testing/evidence';
import { bundlePage, serveOrderPage } from '../../../tools/browser-testing/pages';
import { freshOrderId, repriceOrder } from '../../../tools/conformance/fixtures';
import { startShopApp, type ShopApp } from '../../../tools/browser-testing/shop-app';

const mode = browserTestsMode();
if (mode === 'skip') console.warn(`@paymount/browser: Chromium tests skipped. ${MISSING_CHROMIUM}`);

/** How long a page may take to show what the shop or the sandbox did; a limit for a hang, never a verdict. */
const SHOWN_WITHIN_MS = 60_000;

describe.skipIf(mode === 'skip')('@paymount/browser in headless Chromium, on a page under a strict CSP', () => {
  let shop: ShopApp;
  let browser: Browser;
  let evidence: BrowserEvidence;

  beforeAll(async () => {
    if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
    const script = await bundlePage(new URL('pages/shop-page.ts', import.meta.url).pathname);
    shop = await startShopApp((app, { sandboxUrl }) =>
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
    evidence = new BrowserEvidence(`${shop.url}/payments/wallet/pay`, `${shop.fixture.sandbox.url}/sandbox/wallet-token`);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  async function openOrder(orderId: string): Promise<Page> {
    const context = await browser.newContext();
    evidence.record(context);
    const page = await context.newPage();
    await page.goto(`${shop.url}/?orderId=${orderId}`);
    return page;
  }

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
    await evidence.collectStorage(page.context(), page);
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
    await evidence.collectStorage(page.context(), page);
  });

  it("the hosted checkout's form post goes to the sandbox's page, and back to the order, paid", async () => {
    const orderId = freshOrderId();
    const page = await openOrder(orderId);
    await page.click('#checkout');
    await page.waitForURL(`${shop.fixture.sandbox.url}/**`);
    await page.click('#pay');
    // The service adds its own query parameters to the return URL.
    await page.waitForURL(`${shop.url}/?orderId=${orderId}**`, { timeout: SHOWN_WITHIN_MS });
    await shown(page, 'status', 'succeeded');
  });

  it('no CSP violation on any page, and no wallet token in a URL, an answer, the console or the storage', async () => {
    expect(evidence.walletTokens.size).toBeGreaterThanOrEqual(2);
    const tokens = evidence.tokenFingerprints().map((value) => ({ name: 'wallet token', value }));
    expect(leaks(evidence.traces, tokens)).toEqual([]);
    // Chromium reports every violation on the console, the hosted page's too.
    expect(evidence.traces.filter((trace) => trace.text.includes('Content Security Policy'))).toEqual([]);
  });
});
