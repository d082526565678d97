import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from '../../../tools/browser-testing/chromium';
import { BrowserEvidence, leaks } from '../../../tools/browser-testing/evidence';
import { removeButtonWhileConfigHeld } from '../../../tools/browser-testing/removed-while-held';
import { postJson } from '../../../tests/readmes/test/support/quick-start';
import { nodeBuild, type NodeBuild } from './support/node-build';
import { orderPageSays } from './support/order-page';

const mode = browserTestsMode();
if (mode === 'skip') console.warn(`@paymount/sveltekit: Chromium tests skipped. ${MISSING_CHROMIUM}`);

/** How long a page may take to show what the shop or the sandbox did; a limit for a hang, never a verdict. */
const SHOWN_WITHIN_MS = 60_000;

/** The orders the app's store starts with (id:cents); the sandbox declines 88.88. */
const ORDERS = {
  wallet: 'skc-wallet-1:1250',
  declined: 'skc-declined-1:8888',
  hosted: 'skc-hosted-1:2000',
  first: 'skc-nav-a1:990',
  second: 'skc-nav-b1:990',
  removed: 'skc-removed-1:990',
  probe: 'skc-probe-1:100',
};
const id = (name: keyof typeof ORDERS) => ORDERS[name].split(':')[0]!;

// test/global-setup.ts built the app with the README's quick start and order page in src/ (support/test-app.ts);
// its fixture adds /lifecycle/[orderId], the button removed and handed another order.
describe.skipIf(mode === 'skip')('WalletButton in the README order page, built by vite build, served by node build, in headless Chromium under kit.csp', () => {
  let server: NodeBuild;
  let browser: Browser;
  let evidence: BrowserEvidence;

  beforeAll(async () => {
    if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
    server = await nodeBuild({ PAYMOUNT_SANDBOX: '1', SHOP_ORDERS: Object.values(ORDERS).join(',') });
    // The sandbox runs inside the app: its origin is the one its hosted checkout is on.
    const checkout = await postJson(`${server.origin}/payments/checkout`, { orderId: id('probe') });
    const sandboxOrigin = new URL(String(checkout.body['checkoutUrl'])).origin;
    evidence = new BrowserEvidence(`${server.origin}/payments/wallet/pay`, `${sandboxOrigin}/sandbox/wallet-token`);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A fresh browser context whose every request, answer, console line and storage the evidence keeps. */
  async function newPage(): Promise<{ context: BrowserContext; page: Page; requests: (route: string) => number }> {
    const context = await browser.newContext();
    evidence.record(context);
    const page = await context.newPage();
    const seen: string[] = [];
    page.on('request', (request) => void seen.push(`${request.method()} ${new URL(request.url()).pathname}`));
    return { context, page, requests: (route) => seen.filter((request) => request === route).length };
  }

  const says = (page: Page, text: string) =>
    page.waitForFunction((expected) => document.querySelector('[role=status]')?.textContent === expected, text, { timeout: SHOWN_WITHIN_MS });

  it('serves the order page under a policy with a nonce for its own script and no unsafe-inline or unsafe-eval', async () => {
    const response = await fetch(`${server.origin}/shop/${id('probe')}`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/script-src 'self' http:\/\/127\.0\.0\.1:\* 'nonce-[\w+/=]+'/);
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it("a click on the wallet button pays once, the page says so, and the app's webhook handler marks the order paid", async () => {
    const { context, page, requests } = await newPage();
    await page.goto(`${server.origin}/shop/${id('wallet')}`);
    // A click waits for the button to be enabled: the wallet request fetched and the test wallet loaded.
    await page.getByRole('button', { name: 'Pay with wallet' }).click();
    await says(page, 'Paid. Thank you!');
    expect(await page.getByRole('button', { name: 'Pay with wallet' }).isDisabled()).toBe(true);
    expect(requests('POST /payments/wallet/pay')).toBe(1);
    expect(requests('GET /payments/wallet/config')).toBe(1);
    expect(await orderPageSays(server.origin, id('wallet'), 'paid')).toBe(`Order ${id('wallet')}: paid`);
    await evidence.collectStorage(context, page);
  });

  it('a declined payment shows its reason and leaves the button to pay again', async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.origin}/shop/${id('declined')}`);
    await page.getByRole('button', { name: 'Pay with wallet' }).click();
    await says(page, 'The payment was declined (CARD_DECLINED); nothing was charged.');
    expect(await page.getByRole('button', { name: 'Pay with wallet' }).isEnabled()).toBe(true);
    expect(await orderPageSays(server.origin, id('declined'), 'failed')).toBe(`Order ${id('declined')}: failed`);
    await evidence.collectStorage(context, page);
  });

  it("the hosted checkout's form post goes to the sandbox's page, which pays and sends the shopper back to the order, paid", async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.origin}/shop/${id('hosted')}`);
    await page.getByRole('button', { name: 'Pay on the hosted page' }).click();
    await page.waitForURL((url) => url.origin !== server.origin, { timeout: SHOWN_WITHIN_MS });
    await page.click('#pay');
    // The service adds its own query parameters to the return URL.
    await page.waitForURL(`${server.origin}/orders/${id('hosted')}**`, { timeout: SHOWN_WITHIN_MS });
    expect(await orderPageSays(server.origin, id('hosted'), 'paid')).toBe(`Order ${id('hosted')}: paid`);
    await evidence.collectStorage(context, page);
  });

  it('a client-side navigation hands the button the next order: one wallet request each, and a click pays the next order only', async () => {
    const { context, page, requests } = await newPage();
    await page.goto(`${server.origin}/lifecycle/${id('first')}?next=${id('second')}`);
    await page.waitForFunction(() => document.getElementById('ready')?.textContent === '[true]', undefined, { timeout: SHOWN_WITHIN_MS });
    await page.click('#next');
    await page.waitForURL(`${server.origin}/lifecycle/${id('second')}`);
    await page.waitForFunction(() => document.getElementById('ready')?.textContent === '[true,true]', undefined, { timeout: SHOWN_WITHIN_MS });
    // Still the same document: SvelteKit's router changed the page's data, not the page.
    expect(requests('GET /lifecycle/' + id('second'))).toBe(0);
    await page.click('#wallet');
    await page.waitForFunction(() => document.getElementById('results')?.textContent !== '[]', undefined, { timeout: SHOWN_WITHIN_MS });
    const results = JSON.parse((await page.textContent('#results')) ?? '') as unknown[];
    expect(results).toEqual([{ outcome: 'paid', orderId: id('second'), transactionId: expect.any(String) }]);
    expect(requests('GET /payments/wallet/config')).toBe(2);
    expect(requests('POST /payments/wallet/pay')).toBe(1);
    expect(await orderPageSays(server.origin, id('second'), 'paid')).toBe(`Order ${id('second')}: paid`);
    expect(await (await fetch(`${server.origin}/orders/${id('first')}`)).text()).toBe(`Order ${id('first')}: unpaid`);
    await evidence.collectStorage(context, page);
  });

  it('a button removed before its wallet request came back reports nothing and throws nothing', async () => {
    const { page } = await newPage();
    await removeButtonWhileConfigHeld(page, `${server.origin}/lifecycle/${id('removed')}`);
    expect(await page.textContent('#ready')).toBe('[]');
    expect(await page.textContent('#results')).toBe('[]');
  });

  it('no wallet token in a URL, an answer, the console or the storage, and no CSP violation on any page', () => {
    // The wallet, the declined and the navigated orders' tokens.
    expect(evidence.walletTokens.size).toBe(3);
    const tokens = evidence.tokenFingerprints().map((value) => ({ name: 'wallet token', value }));
    expect(leaks(evidence.traces, tokens)).toEqual([]);
    // Chromium reports every violation on the console, the hosted page's too.
    expect(evidence.traces.filter((trace) => trace.where === 'page error' || trace.text.includes('Content Security Policy'))).toEqual([]);
  });
});
