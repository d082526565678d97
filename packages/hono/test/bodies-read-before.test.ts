import type { Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { validator } from 'hono/validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { postJson, postRaw, send } from '../../../tools/conformance/http';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { readsJsonBodies, startHonoApp, type HonoTestApp } from './support';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());

const eventsFor = (transactionId: string) => fixture.events.filter((event) => event.transactionId === transactionId);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Chunked, without Content-Length: what makes hono's bodyLimit read the stream itself. */
function chunked(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}

/** Middleware an app registers ahead of its routes that read the body through c.req, which keeps its bytes. */
const KEEPING: ReadonlyArray<[string, (app: Hono) => void]> = [
  ['a global middleware awaiting c.req.json()', (app) => app.use(readsJsonBodies)],
  ['a global middleware awaiting c.req.text()', (app) => app.use(async (c, next) => void (await c.req.text(), await next()))],
  ['a global middleware awaiting c.req.parseBody()', (app) => app.use(async (c, next) => void (await c.req.parseBody(), await next()))],
  ["hono's JSON validator on /payments/*", (app) => app.use('/payments/*', validator('json', (value) => value))],
  ["hono's form validator on /payments/*", (app) => app.use('/payments/*', validator('form', (value) => value))],
  ["hono's bodyLimit app-wide", (app) => app.use(bodyLimit({ maxSize: 64 * 1024 }))],
];

for (const [name, before] of KEEPING) {
  describe(`${name}, before the payment routes`, () => {
    let app: HonoTestApp;
    beforeAll(async () => {
      app = await startHonoApp(fixture.options, { before });
      fixture.mountedAt(app.routesUrl);
    });
    afterAll(() => app.close());

    it('a webhook is verified from the exact bytes Hono kept, and handled once', async () => {
      const transactionId = `TX-kept-${freshOrderId()}`;
      const delivery = fixture.delivery(transactionId);
      const res = await postRaw(`${app.routesUrl}/webhook`, delivery.body, delivery.headers);
      expect(res.json).toEqual({ received: true });
      expect(eventsFor(transactionId)).toHaveLength(1);
    });

    it('a checkout is served as JSON and as a form post', async () => {
      const json = await postJson(`${app.routesUrl}/checkout`, { orderId: freshOrderId() });
      expect(json.status).toBe(201);
      const form = await postRaw(`${app.routesUrl}/checkout`, `orderId=${freshOrderId()}`, FORM);
      expect(form.status).toBe(303);
      expect(form.location?.startsWith(fixture.sandbox.url)).toBe(true);
    });

    it('a chunked wallet payment is paid, and the service’s own webhook for it is verified', async () => {
      const body = JSON.stringify({ orderId: freshOrderId(), token: fixture.sandbox.mintWalletToken() });
      const paid = await send(`${app.routesUrl}/wallet/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: chunked(body),
        duplex: 'half',
      } as RequestInit);
      expect(paid.status).toBe(200);
      const { transactionId } = paid.json as { transactionId: string };
      await fixture.sandbox.waitForDeliveries(10_000);
      expect(fixture.sandbox.deliveries().find((d) => d.payload.transactionId === transactionId)?.state).toBe('delivered');
      expect(eventsFor(transactionId).map((event) => event.type)).toEqual(['payment.succeeded']);
    });
  });
}

/** Middleware that took the body away from Hono too: nothing is left to verify a signature against. */
const TAKING: ReadonlyArray<[string, MiddlewareHandler]> = [
  ['awaits c.req.raw.json()', async (c, next) => void (await c.req.raw.json().catch(() => undefined), await next())],
  ['takes a reader on c.req.raw.body', async (c, next) => void (c.req.raw.body?.getReader(), await next())],
  ['awaits c.req.formData(), which Hono keeps parsed only', async (c, next) => void (await c.req.formData().catch(() => undefined), await next())],
];

for (const [name, middleware] of TAKING) {
  describe(`a global middleware that ${name}, before the payment routes`, () => {
    let app: HonoTestApp;
    const logged: Array<{ level: string; fields: Record<string, unknown> }> = [];
    beforeAll(async () => {
      const record = (level: string) => (fields: unknown) => void logged.push({ level, fields: fields as Record<string, unknown> });
      const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
      app = await startHonoApp({ ...fixture.options, logger }, { before: (hono) => hono.use(middleware) });
      fixture.mountedAt(app.routesUrl);
    });
    afterAll(() => app.close());

    const consumed = (route: string) => ({
      level: 'error',
      fields: expect.objectContaining({
        route: `POST ${route}`,
        status: 500,
        code: 'BODY_ALREADY_CONSUMED',
        fix: expect.stringMatching(/c\.req\.raw\.json\(\).*c\.req\.text\(\).*app\.route\('\/payments', paymentApp\(options\)\)/),
      }),
    });

    it('the webhook answers 500 BODY_ALREADY_CONSUMED (so the service retries), runs no handler, and logs the fix for Hono', async () => {
      logged.length = 0;
      const transactionId = `TX-taken-${freshOrderId()}`;
      const delivery = fixture.delivery(transactionId);
      const res = await postRaw(`${app.routesUrl}/webhook`, delivery.body, { ...delivery.headers, 'content-type': 'application/x-www-form-urlencoded' });
      expect(res.status).toBe(500);
      expect((res.json as { error: { code: string; message: string } }).error).toEqual({
        code: 'BODY_ALREADY_CONSUMED',
        message: 'The request body was already read by another middleware. Mount the payment routes before any body parser.',
      });
      expect(eventsFor(transactionId)).toEqual([]);
      expect(logged).toEqual([consumed('/webhook')]);
    });

    it('a form checkout answers the same, never 500 INTERNAL_ERROR', async () => {
      logged.length = 0;
      const res = await postRaw(`${app.routesUrl}/checkout`, `orderId=${freshOrderId()}`, FORM);
      expect(res.status).toBe(500);
      expect((res.json as { error: { code: string } }).error.code).toBe('BODY_ALREADY_CONSUMED');
      expect(logged).toEqual([consumed('/checkout')]);
    });

    it('routes without a body are served as usual', async () => {
      const config = await send(`${app.routesUrl}/wallet/config?orderId=${freshOrderId()}`);
      expect(config.status).toBe(200);
    });
  });
}
