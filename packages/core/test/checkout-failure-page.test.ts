import { describe, expect, it } from 'vitest';
import { captureConsole } from '../../../tools/adapter-testing';
import { PaymentRouteError, type MerchantOrder } from '../src';
import { sandboxFetchHandler } from './support/sandbox-fetch-handler';

const SHOP = 'https://shop.example';
/** What a browser's form submission sends beside its body. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const MARKUP = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

const ORDERS: Record<string, MerchantOrder> = {
  'order-paid': { referenceOrderId: 'order-paid', amount: { orderAmount: 1250, priceCurrency: 'USD' }, description: 'Paid already', payable: false },
};

const routes = sandboxFetchHandler((orderId) => {
  // The merchant's own refusal, whose message the page echoes: it must stay text.
  if (orderId === 'order-other') throw new PaymentRouteError(403, 'ORDER_NOT_FOUND', `Order ${MARKUP} is another shopper's.`);
  return ORDERS[orderId] ?? null;
});
const handler = (request: Request) => routes.handler(request);

function formPost(orderId: string, headers: Record<string, string> = {}, contentType = 'application/x-www-form-urlencoded'): Promise<Response> {
  const body = contentType === 'multipart/form-data' ? formData(orderId) : new URLSearchParams({ orderId }).toString();
  // FormData writes its own content type, with the boundary.
  const typed: Record<string, string> = contentType === 'multipart/form-data' ? {} : { 'content-type': contentType };
  return handler(new Request(`${SHOP}/payments/checkout`, { method: 'POST', headers: { origin: SHOP, accept: BROWSER_ACCEPT, ...typed, ...headers }, body }));
}

function formData(orderId: string): FormData {
  const data = new FormData();
  data.set('orderId', orderId);
  return data;
}

/** The page's text content and its back link, read as a browser would show them. */
function readPage(html: string): { message: string | undefined; back: string | undefined } {
  return { message: /<p id="message">([^<]*)<\/p>/.exec(html)?.[1], back: /<a id="back" href="([^"]*)"/.exec(html)?.[1] };
}

describe("a browser's failed form post to /checkout through createFetchHandler", () => {
  it('gets a page with the failure in plain words and a link back to the page the form was on', async () => {
    const console = captureConsole();
    try {
      const response = await formPost('order-paid', { referer: `${SHOP}/cart?step=2&from=list` });
      expect(response.status).toBe(409);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await response.text();
      expect(readPage(html)).toEqual({ message: 'This order cannot be paid now (already paid, cancelled or refunded).', back: `${SHOP}/cart?step=2&amp;from=list` });
      expect(html).toContain('ORDER_NOT_PAYABLE');
      for (const secret of [routes.sandbox.apiKey, routes.sandbox.webhookSecret]) expect(html).not.toContain(secret);
      console.expectNoSecret([routes.sandbox.apiKey, routes.sandbox.webhookSecret]);
    } finally {
      console.restore();
    }
  });

  it('links back to the shop root, never to a Referer of another site', async () => {
    const response = await formPost('order-nobody-has', { referer: 'https://attacker.example/phish' });
    expect(response.status).toBe(404);
    expect(readPage(await response.text())).toEqual({ message: 'No order exists with this orderId.', back: '/' });
  });

  it('escapes what it echoes: the markup of a message is shown as text', async () => {
    const response = await formPost('order-other');
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(readPage(html).message).toBe('Order &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; is another shopper&#39;s.');
  });

  it('a multipart form (which the route does not take) and a cross-site post are pages too', async () => {
    const multipart = await formPost('order-paid', {}, 'multipart/form-data');
    expect(multipart.status).toBe(415);
    expect(multipart.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const crossSite = await formPost('order-paid', { origin: 'https://attacker.example' });
    expect(crossSite.status).toBe(403);
    expect(readPage(await crossSite.text()).message).toBe('A checkout form posted from another site is refused.');
  });

  it('JSON callers keep JSON: a JSON body, and a form post that asks for JSON', async () => {
    const json = await handler(
      new Request(`${SHOP}/payments/checkout`, { method: 'POST', headers: { 'content-type': 'application/json', accept: BROWSER_ACCEPT }, body: '{"orderId":"order-paid"}' }),
    );
    const formForJson = await formPost('order-paid', { accept: 'application/json' });
    for (const response of [json, formForJson]) {
      expect(response.status).toBe(409);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({ error: { code: 'ORDER_NOT_PAYABLE', message: expect.any(String) } });
    }
  });
});
