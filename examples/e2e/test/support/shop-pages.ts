import type { Page } from 'playwright-core';

/** Orders `sku` from the shop's home page; resolves with the order id its order page names. */
export async function buy(page: Page, shopUrl: string, sku: string): Promise<string> {
  await page.goto(`${shopUrl}/`);
  await page.click(`.product[data-sku="${sku}"] button[type="submit"]`);
  await page.waitForURL(/\/orders\/ord_/);
  const orderId = await page.textContent('#order-id');
  if (!orderId) throw new Error('the order page names no order');
  return orderId;
}

/** From an order page, to the sandbox's hosted checkout, once its Pay button is there. */
export async function openHostedCheckout(page: Page, sandboxUrl: string): Promise<void> {
  await page.click('#checkout');
  await page.waitForURL(`${sandboxUrl}/**`);
  await page.waitForSelector('#pay');
}
