import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PaymentRoutesOptions } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture, type Listening } from './index';
import { disguisedRoutePaths } from '../conformance/path-cases';
import { sendRawPath } from '../conformance/http';

/** The cookie of a signed-in shopper, which `loginGuard` lets through. */
export const SESSION_COOKIE = 'session=shopper';

/**
 * A merchant's login guard, connect-style, as an app places it on its checkout
 * path only (the webhook must stay open): no session cookie, 401.
 */
export function loginGuard(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (req.headers.cookie === SESSION_COOKIE) return next();
  res.writeHead(401, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: 'login required' }));
}

/** `options` whose resolveOrder also counts its calls: a route that ran resolved its order. */
function countingOrders(options: PaymentRoutesOptions): { options: PaymentRoutesOptions; resolved: () => number } {
  let resolved = 0;
  return {
    options: {
      ...options,
      resolveOrder: (orderId, ctx) => {
        resolved += 1;
        return options.resolveOrder(orderId, ctx);
      },
    },
    resolved: () => resolved,
  };
}

/**
 * Proves the guard on `${mountPath}/checkout` cannot be walked around: a
 * checkout posted without the session under every disguised spelling of the
 * path is refused by the guard (401), answered 404, or refused by a server that
 * will not parse its URL (400, @hono/node-server for a backslash), and
 * resolves no order; the plain path is refused without the session and served
 * with it.
 */
async function expectGuardHolds(origin: string, mountPath: string, ordersResolved: () => number): Promise<void> {
  const checkout = (rawPath: string, headers: Record<string, string> = {}) =>
    sendRawPath(origin, rawPath, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ orderId: 'order-1' }),
    });
  const resolvedBefore = ordersResolved();
  const walkedAround: Array<[string, string, number]> = [];
  for (const [label, rawPath] of disguisedRoutePaths(mountPath, '/checkout')) {
    const { status } = await checkout(rawPath);
    if (![400, 401, 404].includes(status)) walkedAround.push([label, rawPath, status]);
  }
  expect(walkedAround).toEqual([]);
  expect(ordersResolved()).toBe(resolvedBefore);
  expect((await checkout(`${mountPath}/checkout`)).status).toBe(401);
  expect(ordersResolved()).toBe(resolvedBefore);
  expect((await checkout(`${mountPath}/checkout`, { cookie: SESSION_COOKIE })).status).toBe(201);
  expect(ordersResolved()).toBe(resolvedBefore + 1);
}

/**
 * Registers the test that a login guard on `/payments/checkout` cannot be
 * walked around: `start` serves an app with that guard (`loginGuard`, or the
 * framework's own spelling of it) before the payment routes built from
 * `options`, mounted at `/payments`.
 */
export function describeGuardHolds(name: string, start: (options: PaymentRoutesOptions) => Promise<Listening>): void {
  describe(`${name}: a login guard the app places on /payments/checkout only`, () => {
    let fixture: AdapterFixture;
    beforeAll(async () => {
      fixture = await startAdapterFixture();
    });
    afterAll(() => fixture.close());

    it('is never walked around by a dot segment, an encoded dot or slash, a backslash or a doubled slash', async () => {
      const { options, resolved } = countingOrders(fixture.options);
      const app = await start(options);
      fixture.mountedAt(`${app.url}/payments`);
      try {
        await expectGuardHolds(app.url, '/payments', resolved);
      } finally {
        await app.close();
      }
    });
  });
}
