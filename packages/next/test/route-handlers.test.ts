import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { paymentRouteHandlers, type PaymentRouteHandlersOptions } from '../src';
import { mountPathOf } from '../src/mount-path';

const ORIGIN = 'http://shop.test';

/** What Next.js hands the handlers of `app/<mount>/[...paymount]/route.ts` for `path`. */
function routed(path: string, init: ConstructorParameters<typeof NextRequest>[1] = {}, mount = '/payments') {
  const below = path.split('?', 1)[0]!.slice(mount.length + 1);
  return [new NextRequest(`${ORIGIN}${path}`, init), { params: Promise.resolve({ paymount: below.split('/') }) }] as const;
}

describe('paymentRouteHandlers', () => {
  let fixture: AdapterFixture;
  let errors: string[];

  beforeEach(async () => {
    fixture = await startAdapterFixture();
    errors = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await fixture.close();
  });

  it('calls the options function on the first request, not before, and once for concurrent first requests', async () => {
    const options = vi.fn(() => fixture.options);
    const handlers = paymentRouteHandlers(options);
    expect(options).not.toHaveBeenCalled();
    const answers = await Promise.all([1, 2, 3].map(() => handlers.GET(...routed('/payments/wallet/config?orderId=order-1'))));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(options).toHaveBeenCalledTimes(1);
    expect(await handlers.getPaymentRoutes()).toBe(await handlers.getPaymentRoutes());
    expect(options).toHaveBeenCalledTimes(1);
    await (await handlers.getPaymentRoutes()).close();
  });

  it('answers 500 without detail when the options function throws, logs why, and calls it again on the next request', async () => {
    let calls = 0;
    const handlers = paymentRouteHandlers(async () => {
      calls += 1;
      if (calls === 1) throw new Error('PAYMENT_API_KEY is not set in this deployment');
      return fixture.options;
    });
    const failed = await handlers.POST(...routed('/payments/checkout', { method: 'POST', body: JSON.stringify({ orderId: 'order-1' }), headers: { 'content-type': 'application/json' } }));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' } });
    expect(errors).toEqual([expect.stringMatching(/^paymount error: paymount payment route options could not be made.*PAYMENT_API_KEY is not set in this deployment/)]);
    const served = await handlers.GET(...routed('/payments/wallet/config?orderId=order-1'));
    expect(served.status).toBe(200);
    expect(calls).toBe(2);
    await (await handlers.getPaymentRoutes()).close();
  });

  it('hands resolveOrder the NextRequest as ctx.context, cookies and all', async () => {
    const seen: Array<string | undefined> = [];
    const options: PaymentRouteHandlersOptions = {
      ...fixture.options,
      resolveOrder: (orderId, ctx) => {
        seen.push(ctx.context.cookies.get('session')?.value);
        return fixture.options.resolveOrder(orderId, ctx);
      },
    };
    const handlers = paymentRouteHandlers(() => options);
    const res = await handlers.GET(...routed('/payments/wallet/config?orderId=order-1', { headers: { cookie: 'session=shopper-7' } }));
    expect(res.status).toBe(200);
    expect(seen).toEqual(['shopper-7']);
    await (await handlers.getPaymentRoutes()).close();
  });

  it('serves wherever the route file sits: the mount path is the path minus the catch-all segments', async () => {
    const handlers = paymentRouteHandlers(() => fixture.options);
    for (const mount of ['/api/shop/pay', '/payments']) {
      const res = await handlers.GET(...routed(`${mount}/wallet/config?orderId=order-1`, {}, mount));
      expect([mount, res.status]).toEqual([mount, 200]);
    }
    const elsewhere = await handlers.GET(...routed('/payments/nothing-here', {}));
    expect([elsewhere.status, await elsewhere.json()]).toEqual([404, { error: { code: 'NOT_FOUND', message: 'No route here.' } }]);
    await (await handlers.getPaymentRoutes()).close();
  });

  it('answers 500 and logs the fix when the route has no catch-all segment, without making the options', async () => {
    const options = vi.fn(() => fixture.options);
    const handlers = paymentRouteHandlers(options);
    const plain = await handlers.GET(new NextRequest(`${ORIGIN}/payments/wallet/config?orderId=order-1`), { params: Promise.resolve({}) });
    const noParams = await handlers.POST(new NextRequest(`${ORIGIN}/payments`, { method: 'POST' }), {});
    expect([plain.status, noParams.status]).toEqual([500, 500]);
    expect(await plain.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' } });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('not on a catch-all route');
    expect(errors[0]).toContain('app/payments/[...paymount]/route.ts');
    expect(options).not.toHaveBeenCalled();
  });
});

describe('mountPathOf', () => {
  it('cuts the catch-all segments from the path as sent', () => {
    expect(mountPathOf('/payments/wallet/config', { paymount: ['wallet', 'config'] })).toBe('/payments');
    expect(mountPathOf('/shop/en/payments/checkout', { lang: 'en', paymount: ['checkout'] })).toBe('/shop/en/payments');
    expect(mountPathOf('/checkout', { paymount: ['checkout'] })).toBe('');
  });

  it('keeps a disguised spelling below the mount in what is left for the routes to refuse', () => {
    // Next.js decodes a segment's %2f into its value: one segment, cut as one.
    expect(mountPathOf('/payments/wallet%2fconfig', { paymount: ['wallet/config'] })).toBe('/payments');
  });

  it('has no mount path without exactly one catch-all with segments', () => {
    expect(mountPathOf('/payments', {})).toBeUndefined();
    expect(mountPathOf('/payments', { paymount: [] })).toBeUndefined();
    expect(mountPathOf('/payments/checkout', { id: 'checkout' })).toBeUndefined();
    expect(mountPathOf('/a', { paymount: ['x', 'y', 'z'] })).toBeUndefined();
  });
});
