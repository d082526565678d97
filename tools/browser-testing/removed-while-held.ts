import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';

const isWalletConfig = (request: Request) => request.url().includes('/payments/wallet/config?');

/**
 * Opens `url`, a page with a wallet button `#wallet` and a `#remove` button
 * taking it out, with the routes' real answer to the wallet config request
 * held back; removes the button once it asked, then lets the answer through
 * and returns once the page has run what the answer could start. What the
 * page shows then is what a removed button reported.
 */
export async function removeButtonWhileConfigHeld(page: Page, url: string): Promise<void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const answered: Array<Promise<unknown>> = [];
  await page.route('**/payments/wallet/config?**', async (route) => {
    await held;
    answered.push(route.continue());
  });
  const configAsked = page.waitForRequest(isWalletConfig);
  const configAnswered = page.waitForEvent('requestfinished', isWalletConfig);
  await page.goto(url);
  // The button asks once the page is hydrated: from then on, the remove button's click handler is there.
  await configAsked;
  await page.click('#remove');
  expect(await page.$('#wallet')).toBeNull();
  release();
  await configAnswered;
  await Promise.all(answered);
  // One turn of the page's event loop after the answer: its callbacks have run by then.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}
