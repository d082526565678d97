import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postJson } from '../../../tools/conformance/http';
import { paymentMiddleware } from '../src';
import { KOA_VERSIONS, startKoaApp, type KoaTestApp } from './support';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());

const [name, App] = KOA_VERSIONS[0];

describe(`${name}: \`prefix\`, the deprecated name of mountPath`, () => {
  let app: KoaTestApp;
  beforeAll(async () => {
    const payments = paymentMiddleware({ ...fixture.options, prefix: '/payments' });
    app = await startKoaApp(App, '/payments', payments, (koa) => koa.use(payments));
    fixture.mountedAt(app.routesUrl);
  });
  afterAll(() => app.close());

  it('still serves the routes under it', async () => {
    expect((await postJson(`${app.routesUrl}/checkout`, { orderId: 'order-1' })).status).toBe(201);
  });

  it('gives way to mountPath when both are set', async () => {
    const payments = paymentMiddleware({ ...fixture.options, mountPath: '/pay', prefix: '/payments' });
    const other = await startKoaApp(App, '/pay', payments, (koa) => koa.use(payments));
    try {
      expect((await postJson(`${other.routesUrl}/checkout`, { orderId: 'order-1' })).status).toBe(201);
      expect((await postJson(`${other.url}/payments/checkout`, { orderId: 'order-1' })).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});
