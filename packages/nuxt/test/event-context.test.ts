import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { send } from '../../../tools/conformance/http';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import type { ConformanceApp } from '../../../tools/conformance';
import { startRemoteApp } from './support/remote-app';

// test/nuxt-app/server/routes/shopper/[...].ts resolves an order only for the request whose `shopper` cookie,
// read from `ctx.context` with h3's getCookie, is the owner's: the H3Event reaches resolveOrder.
let fixture: AdapterFixture;
let app: ConformanceApp;
beforeAll(async () => {
  fixture = await startAdapterFixture();
  app = await startRemoteApp(fixture.options);
});
afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

it("resolveOrder gets the request's H3Event as ctx.context: the owner's cookie is read from it", async () => {
  const orderId = freshOrderId();
  const owner = await send(`${app.url}/shopper/wallet/config?orderId=${orderId}`, { headers: { cookie: 'shopper=owner' } });
  expect(owner.status).toBe(200);
  const stranger = await send(`${app.url}/shopper/wallet/config?orderId=${orderId}`, { headers: { cookie: 'shopper=stranger' } });
  expect(stranger.status).toBe(404);
});
