import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postJson, postRaw } from '../../../tools/conformance/http';
import { mountPaymentRoutes, paymentMiddleware } from '../src';
import { KOA_VERSIONS, ROUTER_VERSIONS, startKoaApp, type KoaTestApp } from './support';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());

const eventsFor = (transactionId: string) => fixture.events.filter((event) => event.transactionId === transactionId);
const deliver = (routesUrl: string, transactionId: string) => {
  const delivery = fixture.delivery(transactionId);
  return postRaw(`${routesUrl}/webhook`, delivery.body, delivery.headers);
};

/** A parser that keeps only the parsed object, as some hand-written ones do. */
const parseWithoutKeepingBytes: Middleware = async (ctx, next) => {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  (ctx.request as { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  await next();
};

for (const [name, App] of KOA_VERSIONS) {
  describe(`${name}: @koa/bodyparser mounted BEFORE the payment middleware`, () => {
    let app: KoaTestApp;
    beforeAll(async () => {
      const payments = paymentMiddleware({ ...fixture.options, mountPath: '/payments' });
      app = await startKoaApp(App, '/payments', payments, (koa) => koa.use(bodyParser()).use(payments));
      fixture.mountedAt(app.routesUrl);
    });
    afterAll(() => app.close());

    it('the webhook is verified from the ctx.request.rawBody it kept', async () => {
      expect((await deliver(app.routesUrl, `TX-kept-${name}`)).status).toBe(200);
      expect(eventsFor(`TX-kept-${name}`)).toHaveLength(1);
    });

    it('JSON and form checkouts work from the kept body', async () => {
      expect((await postJson(`${app.routesUrl}/checkout`, { orderId: 'order-1' })).status).toBe(201);
      const form = await postRaw(`${app.routesUrl}/checkout`, 'orderId=order-1', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status).toBe(303);
    });

    it('a body the parser left unread is read from the stream (it sets ctx.request.body = {} regardless)', async () => {
      const res = await postRaw(`${app.routesUrl}/checkout`, 'orderId=order-1', { 'content-type': 'text/plain' });
      expect(res.status).toBe(415);
    });
  });

  describe(`${name}: a parser that consumed the stream without keeping its bytes`, () => {
    let app: KoaTestApp;
    const fixes: unknown[] = [];
    const keepFix = (fields: unknown) => void fixes.push((fields as { fix?: unknown } | undefined)?.fix);
    beforeAll(async () => {
      const logger = { debug: () => undefined, info: keepFix, warn: keepFix, error: keepFix };
      const payments = paymentMiddleware({ ...fixture.options, logger, mountPath: '/payments' });
      app = await startKoaApp(App, '/payments', payments, (koa) => koa.use(parseWithoutKeepingBytes).use(payments));
      fixture.mountedAt(app.routesUrl);
    });
    afterAll(() => app.close());

    it('the webhook refuses the parsed body with the mounting-order fix in Koa words, and runs no handler', async () => {
      const res = await deliver(app.routesUrl, `TX-parsed-${name}`);
      expect(fixes.at(-1)).toContain("`app.use(paymentMiddleware({ mountPath: '/payments', ...options }));` above `app.use(koaBody());`");
      expect(fixes.at(-1)).not.toMatch(/express/i);
      expect(res.status).toBe(500);
      expect((res.json as { error: { code: string } }).error.code).toBe('WEBHOOK_BODY_ALREADY_PARSED');
      expect(eventsFor(`TX-parsed-${name}`)).toHaveLength(0);
    });
  });

  for (const [routerName, Router] of ROUTER_VERSIONS) {
    describe(`${name}: mountPaymentRoutes on a ${routerName} router nested under another`, () => {
      let app: KoaTestApp;
      beforeAll(async () => {
        const parent = new Router();
        const child = new Router();
        const payments = mountPaymentRoutes(child, '/payments/', fixture.options);
        parent.use('/api', child.routes(), child.allowedMethods());
        app = await startKoaApp(App, '/api/payments', payments, (koa) => koa.use(parent.routes()));
        fixture.mountedAt(app.routesUrl);
      });
      afterAll(() => app.close());

      it('serves the routes under the parent prefix with no extra setting', async () => {
        const transactionId = `TX-nested-${name}-${routerName}`;
        expect((await deliver(app.routesUrl, transactionId)).status).toBe(200);
        expect(eventsFor(transactionId)).toHaveLength(1);
        expect((await postJson(`${app.routesUrl}/checkout`, { orderId: 'order-1' })).status).toBe(201);
      });
    });
  }
}
