import type { Charge, Delivery, Refund } from '@paymount/sandbox';
import { expect } from 'vitest';
import type { RunningShop } from './next-shop';

/** Limits for a hang, never a verdict: a page or route compiles on its first request under next dev. */
export const SETTLED_WITHIN_MS = 120_000;

/** A shopper's (or a staff member's) requests to the running shop and the sandbox's page, over real HTTP. */
export class Shopper {
  private cookie: string | undefined;

  constructor(private readonly shop: RunningShop) {}

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
    await this.deliveriesSettled();
    return paid.headers.get('location')!;
  }

  /** The order's status as its page shows it. */
  async status(orderId: string): Promise<string> {
    const page = await fetch(`${this.shop.url}/orders/${orderId}`, { headers: this.cookie ? { cookie: this.cookie } : {} });
    expect(page.status).toBe(200);
    return /id="status" data-status="(\w+)"/.exec(await page.text())![1]!;
  }

  async signIn(password: string): Promise<void> {
    const answer = await this.post(`${this.shop.url}/login/session`, { password, next: '/' });
    expect(answer.status).toBe(303);
    this.cookie = answer.headers.get('set-cookie')!.split(';')[0];
  }

  /** The order page's refund form (staff only); the refund's webhook has been answered when it resolves. */
  async refund(orderId: string): Promise<Response> {
    const answer = await this.post(`${this.shop.url}/orders/${orderId}/refund`, {});
    await this.deliveriesSettled();
    return answer;
  }

  /** What the sandbox charged for `orderId` (its control routes, which answer this machine only). */
  async charges(orderId: string): Promise<Charge[]> {
    const { charges } = (await this.control('GET', '/sandbox/charges')) as { charges: Charge[] };
    return charges.filter((charge) => charge.referenceOrderId === orderId);
  }

  /** The refunds of `orderId`'s payments, as the sandbox's dashboard lists them. */
  async refunds(orderId: string): Promise<Refund[]> {
    const { snapshot } = (await this.control('GET', `/sandbox/dashboard/data?orderId=${encodeURIComponent(orderId)}`)) as { snapshot: { refunds: Refund[] } };
    return snapshot.refunds;
  }

  async deliveries(): Promise<Delivery[]> {
    return ((await this.control('GET', '/sandbox/deliveries')) as { deliveries: Delivery[] }).deliveries;
  }

  /** Has the sandbox send a delivery again, as its dashboard's Resend button does. */
  async resend(deliveryId: string): Promise<Delivery> {
    return ((await this.control('POST', `/sandbox/deliveries/${deliveryId}/resend`)) as { delivery: Delivery }).delivery;
  }

  /** Once no webhook is waiting for the shop's answer: each is delivered, or out of retries. */
  async deliveriesSettled(): Promise<void> {
    await expect.poll(async () => (await this.deliveries()).filter((delivery) => delivery.state === 'pending'), { timeout: SETTLED_WITHIN_MS, interval: 250 }).toEqual([]);
  }

  private async control(method: 'GET' | 'POST', path: string): Promise<unknown> {
    const answer = await fetch(`${this.shop.sandboxUrl}${path}`, method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: '{}' } : {});
    expect(answer.ok, `${method} ${path}: ${answer.status}`).toBe(true);
    return answer.json();
  }
}
