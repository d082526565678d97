import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { postRaw, send } from '../../../tools/conformance/http';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import type { ConformanceApp } from '../../../tools/conformance';
import { startElysiaAppWith } from './support/elysia-app';

let fixture: AdapterFixture;
let app: ConformanceApp;
const probes: unknown[] = [];
beforeAll(async () => {
  fixture = await startAdapterFixture();
  const keep = (fields: unknown) => {
    const probe = (fields as { contextProbe?: unknown }).contextProbe;
    if (probe !== undefined) probes.push(probe);
  };
  const logger = { debug: keep, info: keep, warn: keep, error: keep };
  // The app derives `shopper` from X-Shopper; its resolveOrder and event handler log what ctx.context holds.
  app = await startElysiaAppWith({ ...fixture.options, logger }, { contextProbe: true });
  fixture.mountedAt(app.url);
});
afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

it("resolveOrder gets the route's Elysia Context as ctx.context, with what the app's derive added", async () => {
  probes.length = 0;
  const orderId = freshOrderId();
  const config = await send(`${app.url}/wallet/config?orderId=${orderId}`, { headers: { 'x-shopper': 'alice' } });
  expect(config.status).toBe(200);
  // Every field Elysia fills only for a handler that uses it: the route, the headers, the query.
  expect(probes).toEqual([{ hook: 'resolveOrder', route: '/payments/wallet/config', shopper: 'alice', header: 'alice', query: { orderId }, hasRequest: true }]);
});

it("the event handlers get the webhook route's Elysia Context as ctx.context", async () => {
  probes.length = 0;
  const transactionId = `TX-context-${freshOrderId()}`;
  const delivery = fixture.delivery(transactionId);
  const res = await postRaw(`${app.url}/webhook`, delivery.body, delivery.headers);
  expect(res.json).toEqual({ received: true });
  expect(probes).toEqual([{ hook: 'event', route: '/payments/webhook', query: {}, hasRequest: true }]);
});
