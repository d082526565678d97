import type { Logger } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, postRaw } from '../../../tools/conformance/http';
import { captureConsoleInEachTest, startAdapterFixture, withDefaultLogger, type AdapterFixture } from '../../../tools/adapter-testing';
import { EXPRESS_VERSIONS, startExpressApp, type ExpressModule, type ExpressTestApp } from './support';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());
const hooks = captureConsoleInEachTest();

/** The usual layout of an app before payments are added: its JSON parser first, then the routes. */
async function parserFirstApp(express: ExpressModule, options = withDefaultLogger(fixture.options)): Promise<ExpressTestApp> {
  const app = hooks.closeAfterTest(
    await startExpressApp(express, options, (expressApp, router) => {
      expressApp.use(express.json());
      expressApp.use('/payments', router);
    }),
  );
  fixture.mountedAt(app.routesUrl);
  return app;
}

async function deliverParsed(routesUrl: string, transactionId: string) {
  const delivery = fixture.delivery(transactionId);
  const res = await postRaw(`${routesUrl}/webhook`, delivery.body, delivery.headers);
  expect(res.status).toBe(500);
  expect((res.json as { error: { code: string } }).error.code).toBe('WEBHOOK_BODY_ALREADY_PARSED');
}

for (const [name, express] of EXPRESS_VERSIONS) {
  describe(`${name}: express.json() before the router, and no logger option`, () => {
    it('a refused webhook delivery writes one console line naming the mounting order and the verify alternative', async () => {
      const { routesUrl } = await parserFirstApp(express);
      await deliverParsed(routesUrl, `TX-log-${name}`);
      const lines = hooks.captured.paymount();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^paymount error: paymount route failed /);
      expect(lines[0]).toContain('"route":"POST /webhook","status":500,"code":"WEBHOOK_BODY_ALREADY_PARSED"');
      expect(lines[0]).toContain("`app.use('/payments', paymentRouter(options));` above `app.use(express.json());`");
      expect(lines[0]).toContain('`app.use(express.json({ verify: (req, _res, buf) => { Object.assign(req, { rawBody: buf }); } }));`');
      hooks.captured.expectNoSecret([fixture.sandbox.apiKey, fixture.sandbox.webhookSecret]);
    });

    it('a 5xx of a payment route is one line too, and requests that succeed write none', async () => {
      const { routesUrl } = await parserFirstApp(express);
      expect((await postJson(`${routesUrl}/checkout`, { orderId: 'order-1' })).status).toBe(201);
      expect(hooks.captured.paymount()).toEqual([]);
      const token = fixture.sandbox.mintWalletToken();
      expect((await postJson(`${routesUrl}/wallet/pay`, { orderId: 'order-broken', token })).status).toBe(500);
      const lines = hooks.captured.paymount();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('"code":"INVALID_ORDER"');
      hooks.captured.expectNoSecret([fixture.sandbox.apiKey, fixture.sandbox.webhookSecret, token]);
    });

    it('logger: false silences it', async () => {
      const { routesUrl } = await parserFirstApp(express, { ...fixture.options, logger: false });
      await deliverParsed(routesUrl, `TX-silent-${name}`);
      expect(hooks.captured.lines).toEqual([]);
    });

    it('a logger given replaces the console: the line goes there, and none to the console', async () => {
      const received: Array<[string, unknown, unknown]> = [];
      const record = (level: string) => (fields: unknown, msg?: unknown) => void received.push([level, fields, msg]);
      const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
      const { routesUrl } = await parserFirstApp(express, { ...fixture.options, logger });
      await deliverParsed(routesUrl, `TX-own-logger-${name}`);
      expect(hooks.captured.lines).toEqual([]);
      const failures = received.filter(([level]) => level === 'error');
      expect(failures).toHaveLength(1);
      expect(failures[0]?.[2]).toBe('paymount route failed');
      expect(failures[0]?.[1]).toMatchObject({ code: 'WEBHOOK_BODY_ALREADY_PARSED', fix: expect.stringContaining('Object.assign(req, { rawBody: buf })') });
    });
  });
}
