import type { OrderLookupContext } from '@paymount/core';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { send } from '../../../tools/conformance/http';
import { FASTIFY_VERSIONS, startFastifyApp, type FastifyTestApp } from './support';

// The app's own global JSON parser: it marks what it parsed, so a test sees which parser ran.
const MARK = 'parsed by the app';

for (const [name, fastify] of FASTIFY_VERSIONS) {
  describe(`${name}: the plugin leaves the app's parsers and routes alone`, () => {
    let fixture: AdapterFixture;
    let app: FastifyTestApp;
    const contexts: unknown[] = [];

    beforeAll(async () => {
      fixture = await startAdapterFixture();
      const { resolveOrder } = fixture.options;
      const options = {
        ...fixture.options,
        resolveOrder: (orderId: string, lookup: OrderLookupContext) => {
          contexts.push(lookup.context);
          return resolveOrder(orderId, lookup);
        },
      };
      app = await startFastifyApp(fastify, options, (instance) => {
        instance.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
          done(null, { ...(JSON.parse(body as string) as object), mark: MARK });
        });
        instance.post('/orders', async (request) => request.body);
      });
      fixture.mountedAt(app.routesUrl);
    });

    afterAll(async () => {
      await app.close();
      await fixture.close();
    });

    it("the app's routes still get bodies from the app's own JSON parser", async () => {
      const res = await send(`${app.url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ item: 'tea' }),
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ item: 'tea', mark: MARK });
    });

    it("the app's routes still refuse a content type it has no parser for", async () => {
      const res = await send(`${app.url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: '<tea/>',
      });
      expect(res.status).toBe(415);
    });

    it("a webhook delivery is verified on its raw bytes despite the app's JSON parser", async () => {
      const delivery = fixture.delivery('txn-fastify-raw');
      const res = await send(`${app.routesUrl}/webhook`, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      });
      expect(res.status).toBe(200);
      expect(fixture.events.map((event) => event.transactionId)).toContain('txn-fastify-raw');
    });

    it("hands resolveOrder the FastifyRequest that asked", async () => {
      const res = await send(`${app.routesUrl}/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shop': 'tea-house' },
        body: JSON.stringify({ orderId: 'order-1' }),
      });
      expect(res.status).toBe(201);
      const context = contexts.at(-1) as FastifyRequest;
      expect(context.headers['x-shop']).toBe('tea-house');
      expect(context.routeOptions.url).toBe('/payments/*');
    });

    it('exposes the core handlers on the app', () => {
      expect(app.app.paymentRoutes.readLimitBytes).toBeGreaterThan(0);
      expect(typeof app.app.paymentRoutes.client.createCheckoutSession).toBe('function');
    });
  });
}
