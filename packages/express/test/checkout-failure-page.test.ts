import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureConsoleInEachTest, startAdapterFixture, withDefaultLogger, type AdapterFixture } from '../../../tools/adapter-testing';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { EXPRESS_VERSIONS, startExpressApp } from './support';

/** What a browser's form submission sends beside its body. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());
const hooks = captureConsoleInEachTest();

for (const [name, express] of EXPRESS_VERSIONS) {
  describe(`${name}: a browser's failed form post to /checkout`, () => {
    async function shop() {
      const app = hooks.closeAfterTest(
        await startExpressApp(express, withDefaultLogger(fixture.options), (expressApp, router) => {
          // The shop's own form parser before the routes, as an app with forms has it.
          expressApp.use(express.urlencoded({ extended: false }));
          expressApp.use('/payments', router);
        }),
      );
      fixture.mountedAt(app.routesUrl);
      return app;
    }

    const formPost = (url: string, orderId: string, headers: Record<string, string>) =>
      fetch(`${url}/payments/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: BROWSER_ACCEPT, ...headers },
        body: new URLSearchParams({ orderId }),
        redirect: 'manual',
      });

    it('gets a page saying what happened with a link back to the shop page it came from, and no secret', async () => {
      const app = await shop();
      const response = await formPost(app.url, freshOrderId('settled'), { origin: app.url, referer: `${app.url}/orders/o-1?tab=pay` });
      expect(response.status).toBe(409);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      expect(html).toContain('<p id="message">This order cannot be paid now (already paid, cancelled or refunded).</p>');
      expect(html).toContain(`<a id="back" href="${app.url}/orders/o-1?tab=pay">`);
      for (const secret of [fixture.sandbox.apiKey, fixture.sandbox.webhookSecret]) expect(html).not.toContain(secret);
      hooks.captured.expectNoSecret([fixture.sandbox.apiKey, fixture.sandbox.webhookSecret]);
    });

    it('a server-side failure is a page too, logged as before, and a payable form post still goes on to the hosted checkout (303)', async () => {
      const app = await shop();
      const broken = await formPost(app.url, 'order-broken', { origin: app.url });
      expect(broken.status).toBe(500);
      expect(await broken.text()).toContain('<p id="message">This order cannot be paid as it is set up on the server.</p>');
      // The merchant's details stay in the log, as for a JSON call.
      expect(hooks.captured.paymount()).toEqual([expect.stringContaining('"code":"INVALID_ORDER"')]);
      const paying = await formPost(app.url, freshOrderId(), { origin: app.url });
      expect(paying.status).toBe(303);
      expect(paying.headers.get('location')).toContain('/hosted/checkout/');
    });

    it('a JSON call of the same order keeps the JSON error', async () => {
      const app = await shop();
      const response = await fetch(`${app.url}/payments/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: freshOrderId('settled') }),
      });
      expect(response.status).toBe(409);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({ error: { code: 'ORDER_NOT_PAYABLE', message: expect.any(String) } });
    });
  });
}
