import { expect, it } from 'vitest';
import type { ConformanceContext } from './context';
import { freshOrderId, UPSTREAM_DELAY_MS } from './fixtures';
import { postJson, type Exchange } from './http';

const CHECKOUT_PATH = '/v1/checkout/create-session';
const SALE_PATH = '/v1/checkout/sale';
/** A 5xx may come with an error envelope or without one; either is a 502 worded as one of these. */
const SERVICE_ERROR_MESSAGES = [
  'The payment service refused the request.',
  'The payment service could not be reached or answered unexpectedly.',
];

/** How the routes answer when the payment service misbehaves (faults injected into the sandbox). */
export function upstreamCases(ctx: () => ConformanceContext): void {
  const checkout = async (): Promise<Exchange> => {
    // A new order each time: an order's open session would be reused without asking the service.
    const exchange = await postJson(`${ctx().app.url}/checkout`, { orderId: freshOrderId() });
    ctx().responses.push(exchange.text);
    return exchange;
  };

  it('a service rate limit (S04) answers 429', async () => {
    ctx().sandbox.injectFault({ kind: 's04', path: CHECKOUT_PATH });
    const res = await checkout();
    expect(res.status).toBe(429);
    expect(res.json).toEqual({
      error: { code: 'SERVICE_RATE_LIMITED', message: 'The payment service is busy (rate limit). Try again shortly.', traceId: expect.any(String) },
    });
  });

  it("passes on the service's Retry-After capped at 60 seconds, so a huge one never reaches the browser", async () => {
    ctx().sandbox.injectFault({ kind: 's04', path: CHECKOUT_PATH, retryAfterSeconds: 86_400 });
    const capped = await checkout();
    expect([capped.status, capped.retryAfter]).toEqual([429, '60']);
    ctx().sandbox.injectFault({ kind: 's04', path: CHECKOUT_PATH, retryAfterSeconds: 7 });
    const kept = await checkout();
    expect([kept.status, kept.retryAfter]).toEqual([429, '7']);
  });

  it('a failing service (HTTP 500) answers 502 in the service-error wording', async () => {
    ctx().sandbox.injectFault({ kind: 'http-500', path: CHECKOUT_PATH });
    const res = await checkout();
    expect(res.status).toBe(502);
    const { error } = res.json as { error: { code: string; message: string } };
    expect(typeof error.code).toBe('string');
    expect(SERVICE_ERROR_MESSAGES).toContain(error.message);
  });

  it('a malformed service answer answers 502', async () => {
    ctx().sandbox.injectFault({ kind: 'non-json', path: CHECKOUT_PATH });
    const res = await checkout();
    expect(res.status).toBe(502);
    expect((res.json as { error: { message: string } }).error.message).toBe(
      'The payment service could not be reached or answered unexpectedly.',
    );
  });

  it('a service time-out answers 504 on checkout', async () => {
    ctx().sandbox.injectFault({ kind: 'delay', path: CHECKOUT_PATH, delayMs: UPSTREAM_DELAY_MS });
    const res = await checkout();
    expect(res.status).toBe(504);
    expect(res.json).toEqual({
      error: { code: 'TIMEOUT', message: 'The payment service did not answer in time; the outcome is not known yet.' },
    });
  });

  it('a wallet payment whose answer times out is pending, never failed', async () => {
    ctx().sandbox.injectFault({ kind: 'delay', path: SALE_PATH, delayMs: UPSTREAM_DELAY_MS });
    const token = ctx().sandbox.mintWalletToken();
    ctx().walletTokens.push(token);
    const orderId = freshOrderId();
    const res = await postJson(`${ctx().app.url}/wallet/pay`, { orderId, token });
    ctx().responses.push(res.text);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'pending', referenceOrderId: orderId, transactionRequestId: expect.any(String) });
  });
}
