import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startSandbox, type Sandbox } from '../src/index';
import { post, sessionBody, startReceiver } from './helpers';

let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  // Service time stands still unless a test moves it, so lifetimes are exact.
  const start = Date.UTC(2030, 5, 1, 9, 0, 0);
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [5], clock: { now: () => start } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

async function createSession(overrides: Record<string, unknown> = {}) {
  const body = sessionBody(sandbox, { notifyUrl: receiver.url, merchantReturnUrl: 'https://shop.example.com/return?from=checkout', ...overrides });
  const answer = await post(sandbox, '/v1/checkout/create-session', body);
  expect(answer.json.code).toBe('0');
  return { body, data: answer.json.data as { checkoutUrl: string; expiresAt: string; sessionId: string } };
}

async function get(url: string) {
  const res = await request(url);
  return { status: res.statusCode, headers: res.headers, html: await res.body.text() };
}

async function submit(url: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.statusCode, location: res.headers.location as string | undefined, html: await res.body.text() };
}

/** The action of the form whose submit button has `id` — read from the page, as a browser would. */
function formAction(html: string, buttonId: string): string {
  const forms = html.split('<form').slice(1);
  const form = forms.find((f) => f.includes(`id="${buttonId}"`));
  const action = /action="([^"]+)"/.exec(form ?? '')?.[1];
  if (!action) throw new Error(`no form with button ${buttonId}`);
  return `${sandbox.url}${action}`;
}

function webhookFor(referenceOrderId: unknown) {
  return receiver.received.find((r) => (JSON.parse(r.rawBody) as { referenceOrderId?: string }).referenceOrderId === referenceOrderId);
}

describe('create-session', () => {
  it('answers checkoutUrl on this sandbox, sessionId and expiresAt 30 minutes ahead in ISO 8601', async () => {
    const { data } = await createSession();
    expect(data.checkoutUrl).toBe(`${sandbox.url}/hosted/checkout/${data.sessionId}`);
    expect(data.expiresAt).toBe(new Date(sandbox.clock.now() + 30 * 60_000).toISOString());
  });

  it('a repeated transactionRequestId returns the first session', async () => {
    const { body, data } = await createSession();
    const again = await post(sandbox, '/v1/checkout/create-session', body);
    expect(again.json.data).toEqual(data);
  });

  it('a repeat after the session expired still answers the first session, its URL and expiry as first answered', async () => {
    const { body, data } = await createSession();
    sandbox.clock.advance(45 * 60_000);
    try {
      const again = await post(sandbox, '/v1/checkout/create-session', body, { 'x-timestamp': String(sandbox.clock.now()) });
      expect(again.json.data).toEqual(data);
      expect(sandbox.charges().some((charge) => charge.transactionRequestId === body.transactionRequestId)).toBe(false);
    } finally {
      sandbox.clock.reset();
    }
  });
});

describe('hosted checkout page, without a browser', () => {
  it('shows the order, pays, redirects to merchantReturnUrl and sends the signed webhook', async () => {
    const { body, data } = await createSession();
    const page = await get(data.checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.html).toContain('Two mugs');
    expect(page.html).toContain('Mug × 2');
    expect(page.html).toContain('$25.00');
    expect(page.html).toContain('$2.00'); // tax
    expect(page.html).toMatch(/id="total">\$27\.00</);
    expect(page.html).toContain('Pay with test wallet');
    expect(page.html).toContain('id="cancel"');
    expect(page.html).not.toContain('name="billing_name"');

    const paid = await submit(formAction(page.html, 'pay'));
    expect(paid.status).toBe(303);
    const location = new URL(paid.location ?? '');
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example.com/return');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      from: 'checkout',
      referenceOrderId: body.referenceOrderId,
      transactionRequestId: body.transactionRequestId,
      status: 'succeeded',
    });

    await sandbox.waitForDeliveries();
    const hook = webhookFor(body.referenceOrderId);
    expect(hook).toBeDefined();
    const signature = createHmac('sha256', sandbox.webhookSecret).update(hook?.rawBody ?? '').digest('hex');
    expect(hook?.headers['x-signature']).toBe(signature);
    expect(hook?.headers['x-client-request-id']).toEqual(expect.any(String));
    expect(JSON.parse(hook?.rawBody ?? '{}')).toMatchObject({
      transactionRequestId: body.transactionRequestId,
      transactionType: 'SALE',
      transactionStatus: 'S',
      amount: { orderAmount: 2500, taxAmount: 200, priceCurrency: 'USD' },
      sessionId: data.sessionId,
    });

    const charges = sandbox.charges().filter((c) => c.referenceOrderId === body.referenceOrderId);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ channel: 'hosted-checkout', payableTotal: 2700, transactionStatus: 'S' });

    const second = await submit(formAction(page.html, 'pay'));
    expect(second.status).toBe(409);
    expect(second.html).toContain('already paid');
    expect(sandbox.charges().filter((c) => c.referenceOrderId === body.referenceOrderId)).toHaveLength(1);
  });

  it('applies the sandbox amounts to the payable total: 8887 fails and redirects with status=failed', async () => {
    const { body, data } = await createSession({ amount: { orderAmount: 8000, taxAmount: 887, priceCurrency: 'USD' }, productList: undefined });
    const paid = await submit(`${data.checkoutUrl}/pay`);
    expect(new URL(paid.location ?? '').searchParams.get('status')).toBe('failed');
    await sandbox.waitForDeliveries();
    expect(JSON.parse(webhookFor(body.referenceOrderId)?.rawBody ?? '{}')).toMatchObject({
      transactionStatus: 'F',
      reason: { code: 'INSUFFICIENT_BALANCE' },
    });
  });

  it('the test wallet card needing additional 3DS is declined with F', async () => {
    const { body, data } = await createSession();
    await submit(`${data.checkoutUrl}/pay`, { testCard: 'additional-3ds' });
    expect(sandbox.charges().find((c) => c.referenceOrderId === body.referenceOrderId)).toMatchObject({
      transactionStatus: 'F',
      reason: { code: 'ADDITIONAL_3DS_REQUIRED' },
    });
  });

  it('cancel redirects with status=cancelled and sends a C webhook, and the session can no longer be paid', async () => {
    const { body, data } = await createSession();
    const page = await get(data.checkoutUrl);
    const cancelled = await submit(formAction(page.html, 'cancel'));
    expect(cancelled.status).toBe(303);
    expect(new URL(cancelled.location ?? '').searchParams.get('status')).toBe('cancelled');
    await sandbox.waitForDeliveries();
    expect(JSON.parse(webhookFor(body.referenceOrderId)?.rawBody ?? '{}')).toMatchObject({ transactionStatus: 'C' });
    expect((await submit(`${data.checkoutUrl}/pay`)).status).toBe(409);
    expect(sandbox.charges().filter((c) => c.referenceOrderId === body.referenceOrderId)).toHaveLength(0);
  });

  it("refuses a pay or cancel form sent from another site with a 403 page, pays and cancels nothing, and takes the page's own forms", async () => {
    const { body, data } = await createSession();
    const page = await get(data.checkoutUrl);
    // What browsers send with a form another site posts: current ones say so in Sec-Fetch-Site, older ones only by the Origin.
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' },
      { 'sec-fetch-site': 'same-site', origin: 'http://localhost:3999' },
      { 'sec-fetch-site': 'cross-site', origin: 'null' },
      { origin: 'https://attacker.example' },
      { origin: 'null' },
    ];
    for (const headers of crossSite) {
      for (const button of ['pay', 'cancel']) {
        const refused = await submit(formAction(page.html, button), {}, headers);
        expect([headers, button, refused.status, refused.location]).toEqual([headers, button, 403, undefined]);
        expect(refused.html).toContain('Payment form refused');
        expect(refused.html).toContain('Nothing was paid or cancelled');
      }
    }
    expect((await get(data.checkoutUrl)).status).toBe(200);
    await sandbox.waitForDeliveries();
    expect(webhookFor(body.referenceOrderId)).toBeUndefined();
    expect(sandbox.charges().filter((c) => c.referenceOrderId === body.referenceOrderId)).toHaveLength(0);

    // The page's own form: Sec-Fetch-Site same-origin from a current browser, its own Origin from an older one.
    const ownOrigin = new URL(sandbox.url).origin;
    const cancelled = await submit(formAction(page.html, 'cancel'), {}, { 'sec-fetch-site': 'same-origin', origin: 'null' });
    expect(cancelled.status).toBe(303);
    const other = await createSession();
    const paid = await submit(formAction((await get(other.data.checkoutUrl)).html, 'pay'), {}, { origin: ownOrigin });
    expect(paid.status).toBe(303);
    expect(sandbox.charges().filter((c) => c.referenceOrderId === other.body.referenceOrderId)).toHaveLength(1);
  });

  it('without merchantReturnUrl the result is shown on the page', async () => {
    const { data } = await createSession({ merchantReturnUrl: undefined });
    const paid = await submit(`${data.checkoutUrl}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.html).toContain('Payment successful');
  });

  it('asks for billing and shipping addresses when requested, and refuses a payment without them', async () => {
    const { body, data } = await createSession({ collectBillingAddress: true, collectShippingAddress: true });
    const page = await get(data.checkoutUrl);
    for (const name of ['billing_name', 'billing_line1', 'billing_country', 'shipping_name', 'shipping_postalCode']) {
      expect(page.html).toContain(`name="${name}"`);
    }
    const incomplete = await submit(`${data.checkoutUrl}/pay`, { billing_name: 'Ada' });
    expect(incomplete.status).toBe(400);
    expect(incomplete.html).toContain('billing line1');
    expect(incomplete.html).toContain('value="Ada"');
    expect(sandbox.charges().filter((c) => c.referenceOrderId === body.referenceOrderId)).toHaveLength(0);

    const address = { name: 'Ada Lovelace', line1: '1 Main St', city: 'London', postalCode: 'N1 9GU', country: 'GB' };
    const fields = Object.fromEntries(
      Object.entries(address).flatMap(([key, value]) => [[`billing_${key}`, value], [`shipping_${key}`, value]]),
    );
    const paid = await submit(`${data.checkoutUrl}/pay`, fields);
    expect(paid.status).toBe(303);
    expect(sandbox.charges().find((c) => c.referenceOrderId === body.referenceOrderId)).toMatchObject({
      billingAddress: address,
      shippingAddress: address,
    });
  });

  it('escapes every value it shows', async () => {
    const { data } = await createSession({
      description: '<script>alert("x")</script>',
      productList: [{ name: '<img src=x onerror=alert(1)>', amount: 2500, num: 1 }],
    });
    const page = await get(data.checkoutUrl);
    expect(page.html).not.toContain('<script>alert');
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('formats the total in the currency’s own minor unit', async () => {
    const yen = await createSession({ amount: { orderAmount: 1500, priceCurrency: 'JPY' }, productList: undefined });
    expect((await get(yen.data.checkoutUrl)).html).toMatch(/id="total">¥1,500</);
    const dinar = await createSession({ amount: { orderAmount: 1500, priceCurrency: 'BHD' }, productList: undefined });
    expect((await get(dinar.data.checkoutUrl)).html).toMatch(/id="total">BHD\s1\.500</);
    // ISO 4217 gives the rupiah 2 decimals where Node's ICU shows none: the page agrees with the client.
    const rupiah = await createSession({ amount: { orderAmount: 150_000, priceCurrency: 'IDR' }, productList: undefined });
    expect((await get(rupiah.data.checkoutUrl)).html).toMatch(/id="total">IDR\s1,500\.00</);
  });

  it('an unknown session is a 404 page', async () => {
    expect((await get(`${sandbox.url}/hosted/checkout/cs_missing`)).status).toBe(404);
  });
});

describe('session lifetime', () => {
  it('after 30 minutes the page says the session expired, paying is refused, and a C webhook is sent', async () => {
    const { body, data } = await createSession();
    sandbox.clock.advance(30 * 60_000 - 1);
    try {
      expect((await get(data.checkoutUrl)).status).toBe(200);
      sandbox.clock.advance(1);
      const page = await get(data.checkoutUrl);
      expect(page.status).toBe(410);
      expect(page.html).toContain('expired');
      const paid = await submit(`${data.checkoutUrl}/pay`);
      expect(paid.status).toBe(410);
      expect(sandbox.charges().filter((c) => c.referenceOrderId === body.referenceOrderId)).toHaveLength(0);
      await sandbox.waitForDeliveries();
      expect(JSON.parse(webhookFor(body.referenceOrderId)?.rawBody ?? '{}')).toMatchObject({
        transactionStatus: 'C',
        reason: { code: 'SESSION_EXPIRED' },
      });
    } finally {
      sandbox.clock.reset();
    }
  });
});
