import { Hono, type Context } from 'hono';
import type { PaymentRoutes } from '@paymount/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { paymentApp, type PaymentAppOptions, type PaymentAppOnFirstRequest } from '../src';

/** A Worker's bindings, as `c.env` holds them: the API key is a secret the deployment may lack. */
type WorkerEnv = { Bindings: { PAYMENT_API_KEY?: string; SHOP: string } };
type Bindings = WorkerEnv['Bindings'];

const ORIGIN = 'http://shop.test';
const json = { 'content-type': 'application/json' };

describe('paymentApp((c) => options): the options made from the first request', () => {
  let fixture: AdapterFixture;
  let errors: string[];
  let app: Hono<WorkerEnv>;
  let payments: PaymentAppOnFirstRequest<WorkerEnv>;
  /** The routes the app served with, read through the app's own route as a merchant's route reads them. */
  let made: PaymentRoutes<Context<WorkerEnv>> | undefined;

  /** A Worker-style call: the bindings passed beside the request, as workerd passes them to `fetch(request, env)`. */
  const request = (path: string, env: Bindings, init: RequestInit = {}) => app.fetch(new Request(`${ORIGIN}${path}`, init), env);
  const bindings: Bindings = { PAYMENT_API_KEY: 'from-env', SHOP: 'shop-7' };

  /** Options as a Worker makes them: the fixture's, with the API key read from `c.env`. */
  const optionsFrom = (c: Context<WorkerEnv>): PaymentAppOptions<WorkerEnv> => {
    const apiKey = c.env.PAYMENT_API_KEY;
    if (apiKey === undefined) throw new Error('PAYMENT_API_KEY is not set in this Worker');
    return { ...fixture.options, client: { ...fixture.options.client, apiKey: apiKey === 'from-env' ? fixture.sandbox.apiKey : apiKey } };
  };

  function mount(factory: (c: Context<WorkerEnv>) => PaymentAppOptions<WorkerEnv> | Promise<PaymentAppOptions<WorkerEnv>>) {
    app = new Hono<WorkerEnv>();
    payments = paymentApp<WorkerEnv>(factory);
    app.route('/payments', payments);
    app.get('/payments/own-route', (c) => c.json({ own: true }));
    app.get('/admin/routes', async (c) => {
      made = await payments.getPaymentRoutes(c);
      return c.json({ paths: made.routePaths });
    });
  }

  beforeEach(async () => {
    fixture = await startAdapterFixture();
    // The notify URL the checkout sends: no payment is made, so nothing is delivered there.
    fixture.mountedAt('http://127.0.0.1:9/payments');
    errors = [];
    made = undefined;
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await made?.close();
    await fixture.close();
  });

  it("calls the function on the first payment request with its Context (c.env: the Worker's bindings), once for concurrent first requests, and keeps the routes", async () => {
    const seen: string[] = [];
    const factory = vi.fn(async (c: Context<WorkerEnv>) => {
      seen.push(c.env.SHOP);
      return optionsFrom(c);
    });
    mount(factory);
    expect(factory).not.toHaveBeenCalled();
    const answers = await Promise.all([1, 2, 3].map(() => request('/payments/wallet/config?orderId=order-1', bindings)));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    const checkout = await request('/payments/checkout', bindings, { method: 'POST', headers: json, body: JSON.stringify({ orderId: freshOrderId() }) });
    expect(checkout.status).toBe(201);
    const delivery = fixture.delivery(`TX-first-request-${freshOrderId()}`);
    const webhook = await request('/payments/webhook', bindings, { method: 'POST', headers: delivery.headers, body: delivery.body });
    expect(await webhook.json()).toEqual({ received: true });
    expect(fixture.events.map((event) => event.type)).toEqual(['payment.succeeded']);
    // The app's own route reaches the same routes (its client calls the service with the key from c.env).
    expect(await (await request('/admin/routes', bindings)).json()).toEqual({ paths: ['/checkout', '/wallet/config', '/wallet/pay', '/status', '/webhook'] });
    expect(seen).toEqual(['shop-7']);
    expect(fixture.sandbox.charges()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('answers 500 without detail while the function throws (a secret the Worker lacks), logs why and how to fix it, and calls it again on the next request', async () => {
    const factory = vi.fn(optionsFrom);
    mount(factory);
    const failed = await request('/payments/checkout', { SHOP: 'shop-7' }, { method: 'POST', headers: json, body: JSON.stringify({ orderId: freshOrderId() }) });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect(await failed.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' } });
    // A webhook is refused alike, so the service delivers it again once the secret is set.
    const delivery = fixture.delivery(`TX-unset-${freshOrderId()}`);
    expect((await request('/payments/webhook', { SHOP: 'shop-7' }, { method: 'POST', headers: delivery.headers, body: delivery.body })).status).toBe(500);
    expect(fixture.events).toEqual([]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^paymount error: paymount payment route options could not be made by paymentApp\(\(c\) => options\).*PAYMENT_API_KEY is not set in this Worker/);
    expect(errors[0]).toContain('npx wrangler secret put NAME');
    const served = await request('/payments/wallet/config?orderId=order-1', bindings);
    expect(served.status).toBe(200);
    expect(factory).toHaveBeenCalledTimes(3);
    await request('/admin/routes', bindings);
  });

  it('answers 500 while the options it gives are invalid, the log naming the field and the rule', async () => {
    mount((c) => optionsFrom(c));
    const failed = await request('/payments/wallet/config?orderId=order-1', { PAYMENT_API_KEY: '', SHOP: 'shop-7' });
    expect(failed.status).toBe(500);
    expect(errors).toEqual([expect.stringMatching(/PaymentValidationError.*client\.apiKey/)]);
    expect((await request('/payments/wallet/config?orderId=order-1', bindings)).status).toBe(200);
    await request('/admin/routes', bindings);
  });

  it("registers the same literal paths: the app's own routes and a disguised spelling never call the function", async () => {
    const factory = vi.fn(optionsFrom);
    mount(factory);
    expect(await (await request('/payments/own-route', bindings)).json()).toEqual({ own: true });
    expect((await request('/payments/%63heckout', bindings, { method: 'POST', headers: json, body: '{}' })).status).toBe(404);
    expect((await request('/payments/elsewhere', bindings)).status).toBe(404);
    expect(factory).not.toHaveBeenCalled();
  });
});
