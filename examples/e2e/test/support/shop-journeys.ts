import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readShopConfig, type OrderStatus, type RunningShop, type StartShopOptions } from '@paymount/example-shop-kit';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from '../../../../tools/browser-testing/chromium';
import { BrowserEvidence, leaks } from '../../../../tools/browser-testing/evidence';
import { captureProcessOutput, LogCapture } from './log-capture';
import { buy as buyInShop, openHostedCheckout as openSandboxCheckout } from './shop-pages';
import { DATABASE_KINDS, databaseSkipped, ShopDatabases, type DatabaseKind, type ShopDatabaseForTest } from './shop-database';

type StartShop = (options: StartShopOptions) => Promise<RunningShop>;

const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));
const SESSION_LIFETIME_MS = 30 * 60_000;
/**
 * Waits for things the shop or the sandbox do on their own (webhook, redirect); never a fixed sleep.
 * Seconds on an idle machine; a refund's webhook and the page's next poll passed 15 s beside two other CI runs.
 */
const SETTLE_TIMEOUT_MS = 60_000;

interface Journey {
  page: Page;
  context: BrowserContext;
}

/**
 * The browser journeys every example shop must pass, against its own
 * embedded sandbox, once with its orders in PGlite and once on a PostgreSQL
 * server (one server for the file, a fresh database for the shop). On
 * `everyJourneyOn`: hosted checkout (paid, declined, cancelled, expired),
 * direct wallet payment (paid, declined), the back office (refunds in full,
 * in part and declined; an abandoned checkout cancelled), the secrets check
 * and a restart. On the other database, the journeys whose outcome is an
 * order row (hosted and wallet paid, each marked paid by its webhook), the
 * secrets check and the restart: the shops share their order code, so each
 * journey runs on each database in one shop or another.
 */
export function describeShopJourneys(label: string, start: StartShop, everyJourneyOn: DatabaseKind): void {
  const mode = browserTestsMode();
  if (mode === 'skip') console.warn(`${label}: browser tests skipped. ${MISSING_CHROMIUM}`);

  describe.skipIf(mode === 'skip')(`${label} in headless Chromium`, () => {
    const databases = new ShopDatabases();
    let browser: Browser | undefined;

    beforeAll(async () => {
      if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await databases.close();
    });

    describe.each(DATABASE_KINDS)('orders on %s', (database) => {
      const every = database === everyJourneyOn;
      describe.skipIf(databaseSkipped(database))(every ? 'every journey' : `the journeys that keep an order (the others run on ${everyJourneyOn})`, () => {
        describeJourneys({ label: `${label} ${database}`, start, every, browser: () => browser, database: () => databases.open(database) });
      });
    });
  });
}

interface JourneysSetup {
  /** Names the screenshot folder. */
  label: string;
  start: StartShop;
  /** Whether to run every journey, or only those whose outcome is an order row. */
  every: boolean;
  browser: () => Browser | undefined;
  database: () => Promise<ShopDatabaseForTest>;
}

function describeJourneys(setup: JourneysSetup): void {
  const { label, every } = setup;
  const logs = new LogCapture();
  let output: ReturnType<typeof captureProcessOutput> | undefined;
  let running: RunningShop | undefined;
  let orders: ShopDatabaseForTest | undefined;
  let evidence: BrowserEvidence;

  const shop = () => {
    if (!running?.sandbox) throw new Error('the shop did not start');
    return { ...running, sandbox: running.sandbox };
  };

  /** The shop on `orders`: started once before the journeys, and again on the same database by the restart. */
  const startShop = (database: ShopDatabaseForTest) =>
    setup.start({
      config: { ...readShopConfig(database.env), port: 0 },
      ...(database.dataDir === undefined ? {} : { dataDir: database.dataDir }),
      logger: logs,
      sandbox: { webhookRetryDelaysMs: [50, 100, 200, 400] },
    });

  beforeAll(async () => {
    output = captureProcessOutput();
    orders = await setup.database();
    running = await startShop(orders);
    evidence = new BrowserEvidence(`${running.url}/payments/wallet/pay`, `${running.sandbox?.url}/sandbox/wallet-token`);
  });

  afterAll(async () => {
    await running?.close();
    orders?.remove();
    output?.stop();
  });

  /**
   * Runs `steps` in a fresh browser context. On failure it keeps a screenshot of where it stopped, and
   * prints what the shop logged and which webhooks the sandbox sent meanwhile: a page that waited in
   * vain says why only there.
   */
  async function journey<T>(name: string, steps: (journey: Journey) => Promise<T>): Promise<T> {
    const browser = setup.browser();
    if (!browser) throw new Error('the browser did not start');
    const context = await browser.newContext();
    evidence.record(context);
    const page = await context.newPage();
    const logged = logs.lines.length;
    const sent = shop().sandbox.deliveries().length;
    try {
      return await steps({ page, context });
    } catch (error) {
      const dir = `${RESULTS_DIR}${slug(label)}`;
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: `${dir}/${slug(name)}.png`, fullPage: true }).catch(() => undefined);
      const deliveries = shop()
        .sandbox.deliveries()
        .slice(sent)
        .map((delivery) => `${delivery.event} ${delivery.state}, answered ${delivery.attempts.map((attempt) => attempt.status ?? attempt.error).join(', ') || 'never'}`);
      console.error(
        `${label}, journey "${name}" failed at ${page.url()}.\nThe shop's log meanwhile:\n${logs.lines.slice(logged).join('\n')}\nThe sandbox's webhooks meanwhile:\n${deliveries.join('\n')}`,
      );
      throw error;
    } finally {
      await evidence.collectStorage(context, page);
      await context.close();
    }
  }

  const buy = (page: Page, sku: string) => buyInShop(page, shop().url, sku);
  const openHostedCheckout = (page: Page) => openSandboxCheckout(page, shop().sandbox.url);

  async function returnFromHostedCheckout(page: Page, orderId: string, button: '#pay' | '#cancel'): Promise<void> {
    await page.click(button);
    await page.waitForURL(`${shop().url}/return?orderId=${orderId}**`, { timeout: SETTLE_TIMEOUT_MS });
    await page.waitForSelector('#returned');
  }

  /** The page follows the order by polling and reloading, so this waits across reloads. */
  async function expectOrderStatus(page: Page, status: OrderStatus): Promise<void> {
    await page.waitForSelector(`#order-status[data-status="${status}"]`, { timeout: SETTLE_TIMEOUT_MS });
  }

  async function payWithWallet(page: Page): Promise<void> {
    await page.waitForSelector('#wallet-pay:not([disabled])');
    await page.click('#wallet-pay');
  }

  /** A paid order, paid by wallet from its page. */
  async function paidOrder(page: Page, sku: string): Promise<string> {
    const orderId = await buy(page, sku);
    await payWithWallet(page);
    await expectOrderStatus(page, 'paid');
    return orderId;
  }

  async function refundPart(page: Page, amount: string): Promise<void> {
    await page.fill('#refund-amount', amount);
    await page.click('#refund-partial');
  }

  const refundsAtService = (orderId: string) =>
    shop()
      .sandbox.refunds()
      .filter((refund) => refund.referenceOrderId === orderId)
      .map((refund) => [refund.amount.totalAmount, refund.transactionStatus]);

  it('hosted checkout: pays on the service page, returns, and the webhook marks the order paid', async () => {
    await journey('hosted checkout paid', async ({ page }) => {
      const orderId = await buy(page, 'mug');
      await expectOrderStatus(page, 'pending');
      await openHostedCheckout(page);
      expect(await page.textContent('#total')).toContain('12.50');
      await returnFromHostedCheckout(page, orderId, '#pay');
      await page.click('#order-link');
      await page.waitForURL(`${shop().url}/orders/${orderId}`);
      await expectOrderStatus(page, 'paid');
      expect(await page.locator('#checkout').count()).toBe(0);
      expect((await shop().shop.orders.get(orderId))?.status).toBe('paid');
    });
  });

  it('direct wallet payment: the token goes to the shop, which charges it; the webhook marks the order paid', async () => {
    await journey('wallet paid', async ({ page }) => {
      const orderId = await buy(page, 'mug');
      await payWithWallet(page);
      await expectOrderStatus(page, 'paid');
      expect(page.url()).toBe(`${shop().url}/orders/${orderId}`);
      expect((await shop().shop.orders.get(orderId))?.status).toBe('paid');
    });
  });


  // The journeys whose outcome is no more than an order row on the other database run on this one only.
  if (every) {
    it('hosted checkout: a declined card (8888) leaves the order failed', async () => {
      await journey('hosted checkout declined', async ({ page }) => {
        const orderId = await buy(page, 'declined');
        await openHostedCheckout(page);
        await returnFromHostedCheckout(page, orderId, '#pay');
        await expectOrderStatus(page, 'failed');
        expect((await shop().shop.orders.get(orderId))?.status).toBe('failed');
      });
    });

    it('hosted checkout: cancelling returns to the shop with the order still unpaid', async () => {
      await journey('hosted checkout cancelled', async ({ page }) => {
        const orderId = await buy(page, 'mug');
        await openHostedCheckout(page);
        await returnFromHostedCheckout(page, orderId, '#cancel');
        // The cancellation's webhook (C, payment.closed) must not make the order paid or failed.
        await shop().sandbox.waitForDeliveries(SETTLE_TIMEOUT_MS);
        await expectOrderStatus(page, 'pending');
        await page.goto(`${shop().url}/orders/${orderId}`);
        await expectOrderStatus(page, 'pending');
        await page.waitForSelector('#checkout');
        expect((await shop().shop.orders.get(orderId))?.status).toBe('pending');
      });
    });

    it('hosted checkout: an expired session cannot be paid, and a new checkout pays the order', async () => {
      await journey('hosted checkout expired', async ({ page }) => {
        const orderId = await buy(page, 'notebook');
        await openHostedCheckout(page);
        shop().sandbox.clock.advance(SESSION_LIFETIME_MS);
        await page.click('#pay');
        await page.waitForSelector('#notice');
        expect(await page.textContent('#notice')).toMatch(/expired/i);
        expect(page.url().startsWith(shop().sandbox.url)).toBe(true);
        expect((await shop().shop.orders.get(orderId))?.status).not.toBe('paid');

        await page.goto(`${shop().url}/orders/${orderId}`);
        await openHostedCheckout(page);
        await returnFromHostedCheckout(page, orderId, '#pay');
        await expectOrderStatus(page, 'paid');
      });
    });

    it('direct wallet payment: insufficient balance (8887) leaves the order failed', async () => {
      await journey('wallet declined', async ({ page }) => {
        const orderId = await buy(page, 'insufficient');
        await payWithWallet(page);
        await expectOrderStatus(page, 'failed');
        expect((await shop().shop.orders.get(orderId))?.status).toBe('failed');
      });
    });

    it('back office: a paid order refunded in full turns Refunded once the refund webhook arrives', async () => {
      await journey('refund in full', async ({ page }) => {
        const orderId = await paidOrder(page, 'mug');
        expect(await page.textContent('#refund-full')).toBe('Refund 12.50 USD in full');
        await page.click('#refund-full');
        await page.waitForURL(`${shop().url}/orders/${orderId}`);
        await expectOrderStatus(page, 'refunded');
        expect(await page.textContent('#refunded-amount')).toBe('12.50 USD');
        expect(await page.locator('#refund-full, #refund-partial, #checkout').count()).toBe(0);
        expect(refundsAtService(orderId)).toEqual([[1250, 'S']]);
      });
    });

    it('back office: a partial refund, checked against what remains, turns the order Partially refunded', async () => {
      await journey('partial refund', async ({ page }) => {
        const orderId = await paidOrder(page, 'notebook');
        await refundPart(page, '18.91');
        await page.waitForSelector('#back-office-notice.error');
        expect(await page.textContent('#back-office-notice')).toContain('must be at most 18.90 USD');
        // The page answered to the post shows the order's own address: a reload posts nothing again.
        expect(page.url()).toBe(`${shop().url}/orders/${orderId}`);
        await refundPart(page, '5.25');
        await expectOrderStatus(page, 'partially_refunded');
        expect(await page.textContent('#refunded-amount')).toBe('5.25 USD');
        expect(await page.textContent('#refund-full')).toBe('Refund 13.65 USD in full');
        expect(refundsAtService(orderId)).toEqual([[525, 'S']]);
      });
    });

    it('back office: a refund the sandbox declines (88.88) is shown failed, and the order stays paid', async () => {
      await journey('refund declined', async ({ page }) => {
        const orderId = await paidOrder(page, 'refund-declined');
        await refundPart(page, '88.88');
        await page.waitForSelector('.refund[data-state="failed"]', { timeout: SETTLE_TIMEOUT_MS });
        expect(await page.textContent('.refund[data-state="failed"]')).toMatch(/^88\.88 USD failed: REFUND_DECLINED/);
        await expectOrderStatus(page, 'paid');
        expect(await page.textContent('#refund-full')).toBe('Refund 100.00 USD in full');
        expect(refundsAtService(orderId)).toEqual([[8888, 'F']]);
      });
    });

    it('back office: an abandoned checkout cancelled from the shop; its hosted page then says expired, and a new checkout pays', async () => {
      await journey('checkout cancelled from the shop', async ({ page }) => {
        const orderId = await buy(page, 'mug');
        await openHostedCheckout(page);
        const abandoned = page.url();
        await page.goto(`${shop().url}/orders/${orderId}`);
        await page.click('#cancel-checkout');
        await page.waitForSelector('#back-office-notice');
        expect(await page.textContent('#back-office-notice')).toContain('The open checkout was cancelled');
        expect(page.url()).toBe(`${shop().url}/orders/${orderId}`);

        const hosted = await page.goto(abandoned);
        expect(hosted?.status()).toBe(410);
        expect(await page.textContent('#notice')).toMatch(/expired/i);
        await shop().sandbox.waitForDeliveries(SETTLE_TIMEOUT_MS);
        expect((await shop().shop.orders.get(orderId))?.status).toBe('pending');

        await page.goto(`${shop().url}/orders/${orderId}`);
        await openHostedCheckout(page);
        expect(page.url()).not.toBe(abandoned);
        await returnFromHostedCheckout(page, orderId, '#pay');
        await expectOrderStatus(page, 'paid');
      });
    });
  }

  it('no page, request URL, browser storage, console line or server log line holds a wallet token, the API key or the webhook secret', async () => {
    // A wallet payment of its own, so the check never runs without a token to look for.
    await journey('secrets', async ({ page }) => {
      await buy(page, 'notebook');
      await payWithWallet(page);
      await expectOrderStatus(page, 'paid');
    });
    const { sandbox } = shop();
    const tokens = evidence.tokenFingerprints();
    expect(tokens.length).toBeGreaterThan(0);
    const secrets = [
      { name: 'the test API key', value: sandbox.testApiKey },
      { name: 'the production API key', value: sandbox.productionApiKey },
      { name: 'the webhook secret', value: sandbox.webhookSecret },
      ...tokens.map((value) => ({ name: 'a wallet token', value })),
    ];
    const serverLines = [...logs.lines, ...(output?.lines ?? [])].map((text) => ({ where: 'server log', text }));
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(leaks([...evidence.traces, ...serverLines], secrets)).toEqual([]);
  });

  it('restart: an order paid before the shop restarts is still paid after it, and its page offers no second payment', async () => {
    const orderId = await journey('paid before the restart', ({ page }) => paidOrder(page, 'mug'));
    await running?.close();
    running = await startShop(orders!);
    await journey('after the restart', async ({ page }) => {
      await page.goto(`${shop().url}/orders/${orderId}`);
      await expectOrderStatus(page, 'paid');
      expect(await page.locator('#checkout, #wallet-pay').count()).toBe(0);
    });
    expect((await shop().shop.orders.get(orderId))?.status).toBe('paid');
  });
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
