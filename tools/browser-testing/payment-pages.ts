import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from './chromium';
import { BrowserEvidence, leaks } from './evidence';

/** How long a page may take to show what the app or the sandbox did; a limit for a hang, never a verdict. */
export const SHOWN_WITHIN_MS = 60_000;

/** Where an app serves its payment routes, and the sandbox they pay against. */
export interface PaymentApp {
  /** The routes' absolute URL, `http://127.0.0.1:<port>/payments`. */
  mount: string;
  sandboxUrl: string;
}

/**
 * One headless Chromium for a test file's pages of an app: each page opened
 * in a fresh context whose URLs, answers, console and storage are recorded as
 * evidence of where a wallet token went.
 */
export class PaymentPages {
  readonly evidence: BrowserEvidence;

  private constructor(
    private readonly browser: Browser,
    app: PaymentApp,
  ) {
    this.evidence = new BrowserEvidence(`${app.mount}/wallet/pay`, `${app.sandboxUrl}/sandbox/wallet-token`);
  }

  static async launch(app: PaymentApp): Promise<PaymentPages> {
    return new PaymentPages(await launchChromium(), app);
  }

  /** A fresh, recorded context's page, opened at `url`. */
  async open(url: string): Promise<Page> {
    const context = await this.browser.newContext();
    this.evidence.record(context);
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  /** Where a wallet token of the pages leaked, and every page error or CSP violation they saw (Chromium puts each on the console). */
  problems(): string[] {
    const tokens = this.evidence.tokenFingerprints().map((value) => ({ name: 'wallet token', value }));
    const broken = this.evidence.traces.filter((trace) => trace.where === 'page error' || trace.text.includes('Content Security Policy'));
    return [...leaks(this.evidence.traces, tokens), ...broken.map((trace) => `${trace.where}: ${trace.text}`)];
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}

/**
 * `describe` for a file's Chromium tests of the app `start` serves: skipped
 * (with the reason) without a Chromium, failed under CI; `tests` get the app
 * and its pages once both started, both closed after the file.
 */
export function describeInChromium<App extends PaymentApp & { close(): Promise<void> }>(
  name: string,
  start: () => Promise<App>,
  tests: (running: () => { app: App; pages: PaymentPages }) => void,
): void {
  const mode = browserTestsMode();
  if (mode === 'skip') console.warn(`${name}: Chromium tests skipped. ${MISSING_CHROMIUM}`);
  describe.skipIf(mode === 'skip')(name, () => {
    let app: App | undefined;
    let pages: PaymentPages | undefined;
    beforeAll(async () => {
      if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
      app = await start();
      pages = await PaymentPages.launch(app);
    });
    afterAll(async () => {
      await pages?.close();
      await app?.close();
    });
    tests(() => {
      if (!app || !pages) throw new Error(`${name}: the app or Chromium did not start`);
      return { app, pages };
    });
  });
}

/** On the sandbox's hosted page `page` was sent to (a checkout's form post), pays with its test wallet. */
export async function payOnSandboxPage(page: Page, sandboxUrl: string): Promise<void> {
  await page.waitForURL(`${sandboxUrl}/**`, { timeout: SHOWN_WITHIN_MS });
  await page.click('#pay');
}
