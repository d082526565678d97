import type { Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsMode, launchChromium, MISSING_CHROMIUM } from '../../tools/browser-testing/chromium';
import { serveBuiltSite } from './built-site';

const mode = browserTestsMode();
const describeBrowser = mode === 'skip' ? describe.skip : describe;

describeBrowser(mode === 'skip' ? `the site in Chromium (skipped: ${MISSING_CHROMIUM})` : 'the site in Chromium, as a reader uses it, offline', () => {
  let site: { url: string; server: Server };
  let browser: Browser;
  let context: BrowserContext;
  /** What went wrong in the pages: script errors, console errors, and any request that left the site. */
  const problems: string[] = [];

  beforeAll(async () => {
    if (mode === 'fail') throw new Error(MISSING_CHROMIUM);
    site = await serveBuiltSite();
    browser = await launchChromium();
    context = await browser.newContext();
    // Nothing but the site itself: fonts, search index and scripts all come from site/dist.
    await context.route('**/*', (route) => {
      if (route.request().url().startsWith(site.url)) return route.continue();
      problems.push(`left the site: ${route.request().url()}`);
      return route.abort();
    });
    context.on('page', (page) => {
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
    });
  });

  afterAll(async () => {
    await browser?.close();
    site?.server.close();
  });

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    const response = await page.goto(`${site.url}${path}`);
    expect(response?.status()).toBe(200);
    // Hydrated: the client has taken over the server-rendered page.
    await page.waitForFunction("document.querySelector('#app')?.__vue_app__ !== undefined");
    return page;
  }

  it('renders the home page, and its first action leads to getting started', async () => {
    const page = await open('/');
    expect(await page.locator('.VPHero .name').textContent()).toContain('paymount');
    await page.getByRole('link', { name: 'Getting started' }).first().click();
    // The client routes without a page load: the new URL comes before the new page is rendered, so wait for the page.
    await page.waitForURL('**/getting-started.html');
    await page.locator('h1', { hasText: 'Getting started' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('renders a guide with its code and the sidebar built from the folders', async () => {
    const page = await open('/getting-started.html');
    expect(await page.locator('.vp-doc div[class*="language-ts"] code').first().textContent()).toContain('startSandbox');
    const sidebar = page.locator('.VPSidebar');
    for (const title of ['Getting started', 'Error codes', 'Why a delivery failed', 'Event catalog']) {
      expect(await sidebar.getByRole('link', { name: title, exact: true }).count()).toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
  });

  it("renders the troubleshooting page at an error code's anchor", async () => {
    const page = await open('/troubleshooting/error-codes.html#ORDER_NOT_FOUND');
    const entry = page.locator('[id="ORDER_NOT_FOUND"]');
    expect(await entry.isVisible()).toBe(true);
    expect(await entry.textContent()).toContain('ORDER_NOT_FOUND');
    expect(problems).toEqual([]);
  });

  it('the local search finds an error code and leads to its entry', async () => {
    const page = await open('/');
    await page.locator('.VPNavBarSearch button').first().click();
    const input = page.locator('.VPLocalSearchBox input');
    await input.fill('ORDER_NOT_FOUND');
    const hit = page.locator('.VPLocalSearchBox .result[href*="error-codes.html#ORDER_NOT_FOUND"]');
    await hit.first().waitFor();
    await hit.first().click();
    await page.waitForURL('**/troubleshooting/error-codes.html#ORDER_NOT_FOUND');
    await page.locator('[id="ORDER_NOT_FOUND"]').waitFor({ state: 'visible' });
    expect(problems).toEqual([]);
  });
});
