import { expect, it } from 'vitest';
import type { ConformanceContext, ConformanceTarget } from './context';
import { ALLOWED_ORIGIN, BODY_LIMIT_BYTES, UNKNOWN_ORDER_ID } from './fixtures';
import { postJson, postRaw, postUnread, send, type Exchange } from './http';

export function checkoutCases(ctx: () => ConformanceContext, target: ConformanceTarget): void {
  const url = () => `${ctx().app.url}/checkout`;
  const seen = (exchange: Exchange) => {
    ctx().responses.push(exchange.text);
    return exchange;
  };

  it('POST /checkout with JSON answers 201 { checkoutUrl, expiresAt, sessionId }', async () => {
    const res = seen(await postJson(url(), { orderId: 'order-1' }));
    expect(res.status).toBe(201);
    expect(res.contentType).toMatch(/^application\/json/);
    const body = res.json as { checkoutUrl: string; expiresAt: string; sessionId: string };
    expect(Object.keys(body).sort()).toEqual(['checkoutUrl', 'expiresAt', 'sessionId']);
    expect(body.checkoutUrl.startsWith(ctx().sandbox.url)).toBe(true);
    expect(new Date(body.expiresAt).toISOString()).toBe(body.expiresAt);
    // The sandbox's hosted page lives at /hosted/checkout/<sessionId>: the id answered is the session's own.
    expect(body.sessionId).toMatch(/^\S+$/);
    expect(new URL(body.checkoutUrl).pathname).toBe(`/hosted/checkout/${body.sessionId}`);
  });

  const ownOrigin = () => new URL(ctx().app.url).origin;
  // A platform checking a form's origin serves only the Origin a browser sends with the app's own pages' forms.
  const fromOwnPage = (): Record<string, string> => (target.platformChecksFormOrigin ? { origin: ownOrigin() } : {});

  it('POST /checkout as a form post answers 303 to the checkout page', async () => {
    const res = seen(
      await postRaw(url(), 'orderId=order-1', { 'content-type': 'application/x-www-form-urlencoded', ...fromOwnPage() }),
    );
    expect(res.status).toBe(303);
    expect(res.location?.startsWith(ctx().sandbox.url)).toBe(true);
    expect(res.text).toBe('');
  });

  const formPost = (headers: Record<string, string>) =>
    postRaw(url(), 'orderId=order-1', { 'content-type': 'application/x-www-form-urlencoded', ...headers });
  const CROSS_SITE = {
    error: { code: 'CROSS_SITE_FORM_POST', message: 'A checkout form posted from another site is refused.' },
  };

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' }],
    ['Sec-Fetch-Site: same-site (another subdomain)', { 'sec-fetch-site': 'same-site', origin: 'https://blog.shop.example' }],
    ['a foreign Origin without Sec-Fetch-Site (older browsers)', { origin: 'https://attacker.example' }],
    ['Origin: null (sandboxed frame)', { origin: 'null' }],
  ])('POST /checkout as a form post with %s answers 403 and creates no session', async (_label, headers) => {
    const sessionsCreated = () => ctx().logLines.filter((line) => line.includes('checkout session created')).length;
    const before = sessionsCreated();
    const resolved = ctx().ordersResolved.length;
    const res = seen(await formPost(headers));
    expect(res.status).toBe(403);
    if (target.platformChecksFormOrigin) {
      // The platform's own 403, in its own words: no route ran.
      expect(ctx().ordersResolved.length).toBe(resolved);
      expect(sessionsCreated()).toBe(before);
      return;
    }
    expect(res.json).toEqual(CROSS_SITE);
    expect(res.location).toBeNull();
    expect(sessionsCreated()).toBe(before);
    expect(ctx().logLines.some((line) => line.includes('allowedOrigins') && line.includes(headers.origin))).toBe(true);
  });

  it('POST /checkout as a form post from its own origin, or from an allowed one, answers 303', async () => {
    const own = ownOrigin();
    const ownPage: Array<Record<string, string>> = [{ 'sec-fetch-site': 'same-origin', origin: own }, { origin: own }];
    const allowed = { 'sec-fetch-site': 'cross-site', origin: ALLOWED_ORIGIN };
    const noOrigin = { 'sec-fetch-site': 'none' };
    // A platform checking the origin serves only its own and those the app made it trust; it refuses a post without an Origin.
    const trusted = !target.platformChecksFormOrigin || target.platformTrustsAllowedOrigin ? [allowed] : [];
    const served = [...ownPage, ...trusted, ...(target.platformChecksFormOrigin ? [] : [noOrigin])];
    for (const headers of served) {
      const res = seen(await formPost(headers));
      expect(res.status, JSON.stringify(headers)).toBe(303);
    }
    const refused = [allowed, noOrigin].filter((headers) => !served.includes(headers));
    const resolved = ctx().ordersResolved.length;
    for (const headers of refused) expect(seen(await formPost(headers)).status, JSON.stringify(headers)).toBe(403);
    expect(ctx().ordersResolved.length).toBe(resolved);
  });

  it('POST /checkout with JSON is not subject to the form check (a cross-site page cannot send JSON without CORS)', async () => {
    const res = seen(await postJson(url(), { orderId: 'order-1' }, { 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' }));
    expect(res.status).toBe(201);
  });

  it('POST /checkout with JSON but Accept: text/html answers 303', async () => {
    const res = seen(await postJson(url(), { orderId: 'order-1' }, { accept: 'text/html,application/xhtml+xml' }));
    expect(res.status).toBe(303);
    expect(res.location?.startsWith(ctx().sandbox.url)).toBe(true);
  });

  it('POST /checkout ignores an amount sent by the browser', async () => {
    const res = seen(
      await postJson(url(), { orderId: 'order-1', amount: { orderAmount: 1, priceCurrency: 'USD' }, description: 'free' }),
    );
    expect(res.status).toBe(201);
    // The session's page shows the server-side total (12.50 + 1.00 tax), never the browser's 0.01.
    const page = await send((res.json as { checkoutUrl: string }).checkoutUrl);
    expect(page.text).toContain('13.50');
    expect(page.text).not.toContain('0.01');
  });

  it('POST /checkout for an unknown order answers 404', async () => {
    const res = seen(await postJson(url(), { orderId: UNKNOWN_ORDER_ID }));
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: { code: 'ORDER_NOT_FOUND', message: 'No order exists with this orderId.' } });
  });

  it('POST /checkout for an order the service would refuse answers 500 and logs the broken rule', async () => {
    const res = seen(await postJson(url(), { orderId: 'order-broken' }));
    expect(res.status).toBe(500);
    expect(res.json).toEqual({
      error: { code: 'INVALID_ORDER', message: 'This order cannot be paid as it is set up on the server.' },
    });
    expect(ctx().logLines.some((line) => line.includes('order-0003') && line.includes('integer_minor_units'))).toBe(true);
  });

  it('POST /checkout without an orderId answers 400 naming the field', async () => {
    const res = seen(await postJson(url(), { order: 'order-1' }));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'Invalid checkout request: orderId must be the order id, a string' },
    });
  });

  it('POST /checkout with malformed JSON answers 400', async () => {
    const res = seen(await postRaw(url(), '{"orderId": "order-1"', { 'content-type': 'application/json' }));
    expect(res.status).toBe(400);
    if (target.platformAnswersMalformedJson) return;
    expect(res.json).toEqual({ error: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' } });
  });

  it('POST /checkout with a wrong content type answers 415', async () => {
    const res = seen(await postRaw(url(), 'orderId=order-1', { 'content-type': 'text/plain', ...fromOwnPage() }));
    expect(res.status).toBe(415);
    expect(res.json).toEqual({
      error: {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'The request Content-Type must be application/json or application/x-www-form-urlencoded.',
      },
    });
  });

  it('POST /checkout with an oversize body answers 413', async () => {
    for (const size of [BODY_LIMIT_BYTES + 1, BODY_LIMIT_BYTES * 8]) {
      const body = JSON.stringify({ orderId: 'order-1', padding: 'x'.repeat(size) });
      const res = seen(await postUnread(url(), body, { 'content-type': 'application/json' }));
      expect(res.status).toBe(413);
      expect(res.json).toEqual({ error: { code: 'BODY_TOO_LARGE', message: 'The request body is too large.' } });
    }
  });

  it('GET /checkout answers 405 with Allow: POST', async () => {
    const res = seen(await send(url()));
    expect(res.status).toBe(405);
    expect(res.allow).toBe('POST');
    expect(res.json).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: 'This route answers POST only.' } });
  });
}
