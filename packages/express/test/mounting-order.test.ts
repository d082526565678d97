import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, postRaw, send } from '../../../tools/conformance/http';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { EXPRESS_VERSIONS, startExpressApp, type ExpressTestApp } from './support';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());

const KEEPERS = [
  ['a Buffer', (buf: Buffer) => buf],
  ['a string', (buf: Buffer) => buf.toString('utf8')],
] as const;

const eventsFor = (transactionId: string) => fixture.events.filter((event) => event.transactionId === transactionId);

for (const [name, express] of EXPRESS_VERSIONS) {
  describe(`${name}: a global body parser mounted BEFORE the router`, () => {
    let app: ExpressTestApp;
    beforeAll(async () => {
      app = await startExpressApp(express, fixture.options, (expressApp, router) => {
        expressApp.use(express.json());
        expressApp.use(express.urlencoded({ extended: false }));
        expressApp.use('/payments', router);
      });
      fixture.mountedAt(app.routesUrl);
    });
    afterAll(() => app.close());

    it('JSON and form checkouts use the body the parser produced', async () => {
      const json = await postJson(`${app.routesUrl}/checkout`, { orderId: 'order-1' });
      expect(json.status).toBe(201);
      const form = await postRaw(`${app.routesUrl}/checkout`, 'orderId=order-1', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status).toBe(303);
      expect(form.location?.startsWith(fixture.sandbox.url)).toBe(true);
    });

    it('a body the parser did not read is read by the router (Express 4 sets req.body = {} regardless)', async () => {
      const res = await postRaw(`${app.routesUrl}/checkout`, 'orderId=order-1', { 'content-type': 'text/plain' });
      expect(res.status).toBe(415);
    });

    it('the webhook refuses the parsed body with the mounting-order fix, and runs no handler', async () => {
      const delivery = fixture.delivery(`TX-parsed-${name}`);
      const res = await postRaw(`${app.routesUrl}/webhook`, delivery.body, delivery.headers);
      expect(res.status).toBe(500);
      const error = (res.json as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('WEBHOOK_BODY_ALREADY_PARSED');
      expect(error.message).toContain('mount the webhook route before any JSON body parser');
      expect(eventsFor(`TX-parsed-${name}`)).toHaveLength(0);
    });
  });

  // The usual way to keep the bytes for signature checks, as a Buffer or as the text.
  for (const [kept, keep] of KEEPERS)
    describe(`${name}: express.json() keeping the bytes (verify sets req.rawBody to ${kept}) mounted BEFORE the router`, () => {
      let app: ExpressTestApp;
      beforeAll(async () => {
        app = await startExpressApp(express, fixture.options, (expressApp, router) => {
          expressApp.use(
            express.json({
              verify: (req, _res, buf) => {
                (req as typeof req & { rawBody?: unknown }).rawBody = keep(buf);
              },
            }),
          );
          expressApp.use(express.urlencoded({ extended: false }));
          expressApp.use('/payments', router);
        });
        fixture.mountedAt(app.routesUrl);
      });
      afterAll(() => app.close());

      it('a webhook is verified from the bytes the parser kept, and handled once', async () => {
        const delivery = fixture.delivery(`TX-kept-${kept}-${name}`);
        const res = await postRaw(`${app.routesUrl}/webhook`, delivery.body, delivery.headers);
        expect(res.status).toBe(200);
        expect(res.json).toEqual({ received: true });
        expect(eventsFor(`TX-kept-${kept}-${name}`)).toHaveLength(1);
      });

      it('a hosted checkout works, as JSON and as a form the other parser read', async () => {
        const json = await postJson(`${app.routesUrl}/checkout`, { orderId: 'order-1' });
        expect(json.status).toBe(201);
        expect((json.json as { checkoutUrl: string }).checkoutUrl.startsWith(fixture.sandbox.url)).toBe(true);
        const form = await postRaw(`${app.routesUrl}/checkout`, 'orderId=order-1', { 'content-type': 'application/x-www-form-urlencoded' });
        expect(form.status).toBe(303);
      });

      it("a wallet payment succeeds and the service's own webhook for it is verified and handled", async () => {
        const paid = await postJson(`${app.routesUrl}/wallet/pay`, { orderId: 'order-1', token: fixture.sandbox.mintWalletToken() });
        expect(paid.status).toBe(200);
        const { status, transactionId } = paid.json as { status: string; transactionId: string };
        expect(status).toBe('succeeded');
        await fixture.sandbox.waitForDeliveries(10_000);
        const delivery = fixture.sandbox.deliveries().find((d) => d.payload.transactionId === transactionId);
        expect(delivery?.state).toBe('delivered');
        expect(eventsFor(transactionId).map((event) => event.type)).toEqual(['payment.succeeded']);
      });
    });

  describe(`${name}: express.raw() mounted before the router`, () => {
    let app: ExpressTestApp;
    beforeAll(async () => {
      app = await startExpressApp(express, fixture.options, (expressApp, router) => {
        expressApp.use(express.raw({ type: 'application/json' }));
        expressApp.use('/payments', router);
      });
      fixture.mountedAt(app.routesUrl);
    });
    afterAll(() => app.close());

    it('the webhook is verified from the exact bytes it kept', async () => {
      const delivery = fixture.delivery(`TX-raw-${name}`);
      const res = await postRaw(`${app.routesUrl}/webhook`, delivery.body, delivery.headers);
      expect(res.status).toBe(200);
      expect(eventsFor(`TX-raw-${name}`)).toHaveLength(1);
    });
  });

  describe(`${name}: the router mounted at the app root`, () => {
    let app: ExpressTestApp;
    beforeAll(async () => {
      app = await startExpressApp(express, fixture.options, (expressApp, router) => {
        expressApp.use(router);
        expressApp.use(express.json());
      });
      fixture.mountedAt(app.url);
    });
    afterAll(() => app.close());

    it('serves the routes at the root and leaves other paths to the app', async () => {
      const delivery = fixture.delivery(`TX-root-${name}`);
      expect((await postRaw(`${app.url}/webhook`, delivery.body, delivery.headers)).status).toBe(200);
      expect(eventsFor(`TX-root-${name}`)).toHaveLength(1);
      const own = await send(`${app.url}/payments/own-route`);
      expect(own.status).toBe(200);
      expect(own.json).toEqual({ own: true });
    });
  });
}
