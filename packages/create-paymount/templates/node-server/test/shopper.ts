import type { Sandbox } from '@paymount/sandbox';
import { expect } from 'vitest';

/** The shop under test: where it answers, and the sandbox it pays on (a Node server's, or the one `npm start` runs beside a Worker). */
export interface ShopUnderTest {
  url: string;
  sandbox: Sandbox | undefined;
}

/** A shopper's (or a staff member's) requests to the running shop and the sandbox's page, over real HTTP. */
export class Shopper {
  private cookie: string | undefined;

  constructor(private readonly shop: ShopUnderTest) {}

  private post(url: string, form: Record<string, string>): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      // As a browser sends a form from the shop's own page.
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin, ...(this.cookie ? { cookie: this.cookie } : {}) },
      body: new URLSearchParams(form),
      redirect: 'manual',
    });
  }

  /** The home page's buy form: resolves the new order's id. */
  async buy(sku: string): Promise<string> {
    const placed = await this.post(`${this.shop.url}/orders`, { sku });
    expect(placed.status).toBe(303);
    return /^\/orders\/([\w-]+)$/.exec(placed.headers.get('location') ?? '')![1]!;
  }

  /** The order page's checkout form: paymount's route answers 303 to the hosted checkout page. */
  async checkout(orderId: string): Promise<URL> {
    const answer = await this.post(`${this.shop.url}/payments/checkout`, { orderId });
    expect(answer.status).toBe(303);
    return new URL(answer.headers.get('location')!);
  }

  /**
   * Pays on the sandbox's hosted page with its test card (`additional-3ds`: declined) and waits for the
   * webhook to have been answered; resolves where the page sent the shopper back.
   */
  async pay(checkoutUrl: URL, testCard: 'approve' | 'additional-3ds' = 'approve'): Promise<string> {
    const page = await fetch(checkoutUrl);
    expect(page.status).toBe(200);
    const paid = await this.post(`${checkoutUrl.href}/pay`, { testCard });
    expect(paid.status).toBe(303);
    await this.shop.sandbox!.waitForDeliveries();
    return paid.headers.get('location')!;
  }

  /** The order's status as its page shows it. */
  async status(orderId: string): Promise<string> {
    const page = await fetch(`${this.shop.url}/orders/${orderId}`, { headers: this.cookie ? { cookie: this.cookie } : {} });
    expect(page.status).toBe(200);
    return /id="status" data-status="(\w+)"/.exec(await page.text())![1]!;
  }

  async signIn(password: string): Promise<void> {
    const answer = await this.post(`${this.shop.url}/login`, { password, next: '/' });
    expect(answer.status).toBe(303);
    this.cookie = answer.headers.get('set-cookie')!.split(';')[0];
  }

  /** The order page's refund form (staff only); the refund's webhook has been answered when it resolves. */
  async refund(orderId: string): Promise<Response> {
    const answer = await this.post(`${this.shop.url}/orders/${orderId}/refund`, {});
    await this.shop.sandbox!.waitForDeliveries();
    return answer;
  }
}
