import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../adapter-testing';
import { freshOrderId, repriceOrder } from '../conformance/fixtures';
import { describeInChromium, payOnSandboxPage, SHOWN_WITHIN_MS } from './payment-pages';

/**
 * A framework's app with an order page as the framework READMEs write it: a
 * wallet button labelled "Pay with wallet", a hosted checkout button labelled
 * "Pay on the hosted page", and a `role="status"` line saying the wallet's
 * result in the words of @paymount/react's quick start.
 */
export interface OrderPageApp {
  /** The payment routes' absolute URL. */
  mount: string;
  /** The order page's URL for `orderId`. */
  orderPage(orderId: string): string;
  close(): Promise<void>;
}

export interface OrderPageFacts {
  /** The wallet button is in the page's HTML as the server sent it (a server-rendered, then hydrated, component). */
  serverRendered: boolean;
  /** The page's Content Security Policy as the app sends it, or why it sends none (put in a test's name). */
  csp: { policy: string } | { none: string };
}

const DECLINED = 8888;

/**
 * The Chromium journeys every framework's order page passes against its
 * production build and the sandbox: the wallet button pays (the app's
 * webhook handler sees the order paid), a decline shows its reason, the hosted
 * checkout pays, and no wallet token reaches a URL, an answer, the console or
 * the storage.
 */
export function describeOrderPageJourneys(name: string, start: (fixture: AdapterFixture) => Promise<OrderPageApp>, facts: OrderPageFacts): void {
  /** The app, its routes' options the fixture's: the sandbox as the service, every event its handlers ran for recorded. */
  const startWithFixture = async () => {
    const fixture = await startAdapterFixture();
    const app = await start(fixture).catch(async (error: unknown) => {
      await fixture.close();
      throw error;
    });
    return {
      mount: app.mount,
      orderPage: (orderId: string) => app.orderPage(orderId),
      sandboxUrl: fixture.sandbox.url,
      events: fixture.events,
      async close() {
        await app.close();
        await fixture.close();
      },
    };
  };
  describeInChromium(name, startWithFixture, (running) => {
    // A string, run in the page: the packages of these tests type-check without the DOM's declarations.
    const said = (page: Page, text: string) =>
      page.waitForFunction(`document.querySelector('[role="status"]')?.textContent === ${JSON.stringify(text)}`, undefined, { timeout: SHOWN_WITHIN_MS });

    const walletButton = (page: Page) => page.getByRole('button', { name: 'Pay with wallet' });
    const payWithWallet = (page: Page) => page.locator('button:enabled', { hasText: 'Pay with wallet' }).click({ timeout: SHOWN_WITHIN_MS });

    /** Waits for the app's handler of the order's `payment.succeeded` (a shop's marks the order paid there). */
    const handledPaid = (orderId: string) =>
      expect
        .poll(() => running().app.events.some((event) => event.type === 'payment.succeeded' && event.referenceOrderId === orderId), { timeout: SHOWN_WITHIN_MS })
        .toBe(true);

    it(facts.serverRendered ? 'the server renders the wallet button into the page, disabled until it is hydrated and ready' : 'the page as served names the script that renders the button', async () => {
      const { app } = running();
      const answer = await fetch(app.orderPage(freshOrderId()));
      const html = await answer.text();
      expect(answer.status).toBe(200);
      if (facts.serverRendered) expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Pay with wallet<\/button>/);
      else expect(html).toMatch(/<script type="module"[^>]* src="[^"]+"><\/script>/);
      if ('policy' in facts.csp) expect(answer.headers.get('content-security-policy')).toBe(facts.csp.policy);
    });

    it('a click on the wallet button pays, and the webhook handler sees the order paid', async () => {
      const { app, pages } = running();
      const orderId = freshOrderId();
      const page = await pages.open(app.orderPage(orderId));
      await payWithWallet(page);
      await said(page, 'Paid. Thank you!');
      await handledPaid(orderId);
      await pages.evidence.collectStorage(page.context(), page);
    });

    it('a declined payment shows its reason, and the button can pay again', async () => {
      const { app, pages } = running();
      const orderId = freshOrderId();
      repriceOrder(orderId, { orderAmount: DECLINED, priceCurrency: 'USD' });
      const page = await pages.open(app.orderPage(orderId));
      await payWithWallet(page);
      await said(page, 'The payment was declined (CARD_DECLINED); nothing was charged.');
      expect(await walletButton(page).isEnabled()).toBe(true);
      await pages.evidence.collectStorage(page.context(), page);
    });

    it("the hosted checkout's form post leads to the sandbox's page, where the order is paid", async () => {
      const { app, pages } = running();
      const orderId = freshOrderId();
      const page = await pages.open(app.orderPage(orderId));
      await page.getByRole('button', { name: 'Pay on the hosted page' }).click();
      await payOnSandboxPage(page, app.sandboxUrl);
      await handledPaid(orderId);
      await pages.evidence.collectStorage(page.context(), page);
    });

    const cspNote = 'policy' in facts.csp ? ', no CSP violation' : ` (no CSP: ${facts.csp.none})`;
    it(`no wallet token in a URL, an answer, the console or the storage; no page error${cspNote}`, () => {
      const { pages } = running();
      expect(pages.evidence.walletTokens.size).toBe(2);
      expect(pages.problems()).toEqual([]);
    });
  });
}
