import { bearerAuth } from 'hono/bearer-auth';
import { except } from 'hono/combine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { postJson, postRaw, send } from '../../../tools/conformance/http';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { startHonoApp, type HonoTestApp } from './support';

// The Hono guide's "An app-wide auth middleware": every path behind it but the webhook, which the service signs instead.
const TOKEN = 'staff-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };

let fixture: AdapterFixture;
let app: HonoTestApp;
beforeAll(async () => {
  fixture = await startAdapterFixture();
  app = await startHonoApp(fixture.options, { before: (hono) => hono.use(except('/payments/webhook', bearerAuth({ token: TOKEN }))) });
  fixture.mountedAt(app.routesUrl);
});
afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

it('keeps every other payment route and the app’s own routes behind the auth', async () => {
  expect((await postJson(`${app.routesUrl}/checkout`, { orderId: freshOrderId() })).status).toBe(401);
  expect((await send(`${app.routesUrl}/status?orderId=${freshOrderId()}`)).status).toBe(401);
  expect((await send(`${app.routesUrl}/own-route`)).status).toBe(401);
  expect((await postJson(`${app.routesUrl}/checkout`, { orderId: freshOrderId() }, AUTH)).status).toBe(201);
});

it("lets the service's own webhook through, verified by its signature", async () => {
  const paid = await postJson(`${app.routesUrl}/wallet/pay`, { orderId: freshOrderId(), token: fixture.sandbox.mintWalletToken() }, AUTH);
  expect(paid.status).toBe(200);
  const { transactionId } = paid.json as { transactionId: string };
  await fixture.sandbox.waitForDeliveries(10_000);
  expect(fixture.sandbox.deliveries().find((d) => d.payload.transactionId === transactionId)?.state).toBe('delivered');
  expect(fixture.events.filter((event) => event.transactionId === transactionId).map((event) => event.type)).toEqual(['payment.succeeded']);
});

it('answers an unsigned or forged delivery 400, so the exemption opens nothing else', async () => {
  const delivery = fixture.delivery(`TX-forged-${freshOrderId()}`);
  const forged = await postRaw(`${app.routesUrl}/webhook`, delivery.body.replace('"S"', '"F"'), delivery.headers);
  expect(forged.status).toBe(400);
  const unsigned = await postRaw(`${app.routesUrl}/webhook`, delivery.body, { 'content-type': 'application/json' });
  expect(unsigned.status).toBe(400);
});

it('answers a disguised spelling of the webhook path, which Hono decodes past the auth, 404', async () => {
  const transactionId = `TX-disguised-${freshOrderId()}`;
  const delivery = fixture.delivery(transactionId);
  const disguised = await postRaw(`${app.routesUrl}/%77ebhook`, delivery.body, delivery.headers);
  expect(disguised.status).toBe(404);
  expect(fixture.events.filter((event) => event.transactionId === transactionId)).toEqual([]);
});
