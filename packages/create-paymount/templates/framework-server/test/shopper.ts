import { expect } from 'vitest';
import type { RunningShop } from './running-shop.js';

/** What the sandbox keeps of a webhook delivery (its control route `GET /sandbox/deliveries`). */
export interface Delivery {
  deliveryId: string;
  event: string;
  payload: Record<string, unknown>;
  state: 'pending' | 'delivered' | 'failed';
  attempts: { status?: number }[];
}

/**
 * Where the page's post form whose first field is `field` posts, against the page's URL (a form without
 * an action posts to its page). The form's attributes in any order: React writes `action` before `method`.
 */
function formAction(page: string, pageUrl: URL, field: string): URL | undefined {
  for (const [, attributes] of page.matchAll(new RegExp(`<form\\b([^>]*)>\\s*${field}`, 'g'))) {
    if (!/\bmethod="post"/.test(attributes!)) continue;
    const action = /\baction="([^"]*)"/.exec(attributes!)?.[1];
    return new URL(action?.replaceAll('&amp;', '&') ?? '', pageUrl);
  }
  return undefined;
}

/** The post form of the page whose hidden input `name` has `value`, its first field. */
function hiddenFormAction(page: string, pageUrl: URL, name: string, value: string): URL {
  const action = formAction(page, pageUrl, `<input type="hidden" name="${name}" value="${value}"`);
  if (!action) throw new Error(`no form with a hidden ${name} ${value} in:\n${page}`);
  return action;
}

/**
 * A shopper's (or a staff member's) requests to the running shop and the sandbox's pages, over real HTTP,
 * following the forms the pages show.
 */
export class Shopper {
  private cookie: string | undefined;

  constructor(private readonly shop: RunningShop) {}

  private post(url: string | URL, form: Record<string, string>): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      // As a browser sends a form from the page's own origin: the frameworks refuse a form post with another
      // Origin, or none, and SvelteKit answers an action's redirect as JSON to a request that takes JSON.
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(url).origin,
        accept: 'text/html',
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: new URLSearchParams(form),
      redirect: 'manual',
    });
  }

  private async page(path: string): Promise<{ html: string; url: URL }> {
    const url = new URL(path, this.shop.url);
    const page = await fetch(url, { headers: this.cookie ? { cookie: this.cookie } : {} });
    expect(page.status).toBe(200);
    return { html: await page.text(), url };
  }

  /** A call to the sandbox's control routes. */
  private async sandbox<T>(path: string, method: 'GET' | 'POST' = 'GET'): Promise<T> {
    const answer = await fetch(new URL(path, this.shop.sandboxUrl), { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
    expect(answer.ok).toBe(true);
    return (await answer.json()) as T;
  }

  /** The home page's buy form: resolves the new order's id. */
  async buy(sku: string): Promise<string> {
    const { html, url } = await this.page('/');
    const placed = await this.post(hiddenFormAction(html, url, 'sku', sku), { sku });
    expect(placed.status).toBe(303);
    return /^\/orders\/([\w-]+)$/.exec(placed.headers.get('location') ?? '')![1]!;
  }

  /** The order page's checkout form: paymount's route answers 303 to the hosted checkout page. */
  async checkout(orderId: string): Promise<URL> {
    const { html, url } = await this.page(`/orders/${orderId}`);
    const answer = await this.post(hiddenFormAction(html, url, 'orderId', orderId), { orderId });
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
    await this.settled();
    return paid.headers.get('location')!;
  }

  /** The order's status as its page shows it. */
  async status(orderId: string): Promise<string> {
    return /id="status" data-status="(\w+)"/.exec((await this.page(`/orders/${orderId}`)).html)![1]!;
  }

  /** The login page's form, wherever it posts. */
  async signIn(password: string): Promise<void> {
    const { html, url } = await this.page('/login');
    const answer = await this.post(hiddenFormAction(html, url, 'next', '/'), { password, next: '/' });
    expect(answer.status).toBe(303);
    this.cookie = answer.headers.get('set-cookie')!.split(';')[0];
  }

  /** Where the order page's refund form posts; only staff see it. */
  async refundAction(orderId: string): Promise<URL | undefined> {
    const { html, url } = await this.page(`/orders/${orderId}`);
    return formAction(html, url, '<button type="submit" id="refund">');
  }

  /** Posts the refund form, as whoever this shopper is; the refund's webhook has been answered when it resolves. */
  async refund(action: URL): Promise<Response> {
    const answer = await this.post(action, {});
    await this.settled();
    return answer;
  }

  async charges(orderId: string): Promise<{ transactionId: string; transactionStatus: string; amount: { orderAmount: number; priceCurrency: string } }[]> {
    const { charges } = await this.sandbox<{ charges: { referenceOrderId: string; transactionId: string; transactionStatus: string; amount: { orderAmount: number; priceCurrency: string } }[] }>('/sandbox/charges');
    return charges.filter((charge) => charge.referenceOrderId === orderId);
  }

  async deliveries(): Promise<Delivery[]> {
    return (await this.sandbox<{ deliveries: Delivery[] }>('/sandbox/deliveries')).deliveries;
  }

  /** The sandbox sends the delivery again, same body and signature: a replay. */
  async resend(deliveryId: string): Promise<Delivery> {
    const { delivery } = await this.sandbox<{ delivery: Delivery }>(`/sandbox/deliveries/${deliveryId}/resend`, 'POST');
    await this.settled();
    return (await this.deliveries()).find((each) => each.deliveryId === delivery.deliveryId)!;
  }

  /** Until the sandbox has no webhook delivery left to send: each was answered, or gave up. */
  async settled(): Promise<void> {
    while ((await this.deliveries()).some((delivery) => delivery.state === 'pending')) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
