import { startSandbox, type Sandbox } from '@paymount/sandbox';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from '../../../tools/browser-testing/chromium';
import { BrowserEvidence, leaks } from '../../../tools/browser-testing/evidence';
import type { NitroServer } from './support/nitro-server';
import { addOrder, orderOnce, startShop } from './support/shop';

const mode = browserTestsMode();
if (mode === 'skip') console.warn(`@paymount/nuxt: Chromium tests skipped. ${MISSING_CHROMIUM}`);

/** How long a page may take to show what the shop or the sandbox did; a limit for a hang, never a verdict. */
const SHOWN_WITHIN_MS = 60_000;

// The guide's page (site/guides/nuxt.md's app/pages/orders/[id].vue, as written) in the test app built by `nuxt build`, served by
// `node .output/server/index.mjs` with the README's settings pointing at a sandbox: its routes pay there, its
// webhooks reach the README's handlers, and the page's WalletButton opens the sandbox's test wallet.
describe.skipIf(mode === 'skip')("the guide's order page in headless Chromium, served by the production build", () => {
  let sandbox: Sandbox;
  let shop: NitroServer;
  let browser: Browser;
  let evidence: BrowserEvidence;

  beforeAll(async () => {
    if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [50, 100], log: false });
    shop = await startShop(sandbox);
    evidence = new BrowserEvidence(`${shop.origin}/payments/wallet/pay`, `${sandbox.url}/sandbox/wallet-token`);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await sandbox?.close();
  });

  /** Opens the order's page; counts the wallet requests it sends to the routes. */
  async function openOrder(orderId: string): Promise<{ page: Page; configs: () => number; payments: () => number }> {
    const context = await browser.newContext();
    evidence.record(context);
    const page = await context.newPage();
    let configs = 0;
    let payments = 0;
    page.on('request', (request) => {
      if (request.url().startsWith(`${shop.origin}/payments/wallet/config`)) configs += 1;
      if (request.url() === `${shop.origin}/payments/wallet/pay`) payments += 1;
    });
    await page.goto(`${shop.origin}/orders/${orderId}`);
    return { page, configs: () => configs, payments: () => payments };
  }

  const walletButton = (page: Page) => page.getByRole('button', { name: 'Pay with wallet' });
  const shown = (page: Page, selector: string, text: string) =>
    page.waitForFunction(([where, expected]) => document.querySelector(where!)?.textContent === expected, [selector, text], { timeout: SHOWN_WITHIN_MS });

  it('the server renders the bare, disabled button: the browser module takes it over only in the browser', async () => {
    const html = await (await fetch(`${shop.origin}/orders/${await addOrder(shop, 700)}`)).text();
    expect(html).toContain('<button type="button" disabled>Pay with wallet</button>');
  });

  it("a click pays once, and the README's payment.succeeded handler marks the order paid", async () => {
    const orderId = await addOrder(shop, 1_200);
    const { page, configs, payments } = await openOrder(orderId);
    // Playwright's click waits for the button to be enabled: the wallet request fetched, the test wallet loaded.
    await walletButton(page).click({ timeout: SHOWN_WITHIN_MS });
    await shown(page, '[role=status]', 'Paid: thank you.');
    expect(await orderOnce(shop, orderId, 'paid')).toMatchObject({ status: 'paid', totalCents: 1_200, transactionId: expect.any(String) as string });
    await shown(page, 'output', 'succeeded');
    expect(await walletButton(page).isDisabled()).toBe(true);
    expect({ configs: configs(), payments: payments() }).toEqual({ configs: 1, payments: 1 });
    await evidence.collectStorage(page.context(), page);
  });

  it('a declined card shows its reason, leaves the button to pay again, and the order failed', async () => {
    const orderId = await addOrder(shop, 8888);
    const { page } = await openOrder(orderId);
    await walletButton(page).click({ timeout: SHOWN_WITHIN_MS });
    await shown(page, '[role=status]', 'Declined (CARD_DECLINED): try another card.');
    expect(await walletButton(page).isEnabled()).toBe(true);
    expect(await orderOnce(shop, orderId, 'failed')).toMatchObject({ status: 'failed' });
    await evidence.collectStorage(page.context(), page);
  });

  it("the hosted checkout's form post goes to the sandbox's page, and back to the order page, paid", async () => {
    const orderId = await addOrder(shop, 2_500);
    const { page } = await openOrder(orderId);
    await page.getByRole('button', { name: 'Pay on the hosted page' }).click();
    await page.waitForURL(`${sandbox.url}/**`, { timeout: SHOWN_WITHIN_MS });
    await page.click('#pay');
    // The service adds its own query parameters to the return URL.
    await page.waitForURL(`${shop.origin}/orders/${orderId}**`, { timeout: SHOWN_WITHIN_MS });
    await shown(page, 'output', 'succeeded');
    expect(await orderOnce(shop, orderId, 'paid')).toMatchObject({ status: 'paid', totalCents: 2_500 });
    await evidence.collectStorage(page.context(), page);
  });

  it('no wallet token, API key or webhook secret in a URL, an answer, the console, the storage or the server log; no page error', () => {
    expect(evidence.walletTokens.size).toBe(2);
    const settings = sandbox.clientOptions();
    const secrets = [
      ...evidence.tokenFingerprints().map((value) => ({ name: 'wallet token', value })),
      { name: 'API key', value: settings.apiKey },
      { name: 'webhook secret', value: sandbox.webhookSecret },
    ];
    expect(leaks([...evidence.traces, { where: 'server log', text: shop.output() }], secrets)).toEqual([]);
    expect(evidence.traces.filter((trace) => trace.where === 'page error')).toEqual([]);
  });
});
