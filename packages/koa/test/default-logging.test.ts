import { bodyParser } from '@koa/bodyparser';
import type { PaymentRoutesOptions } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureConsoleInEachTest, startAdapterFixture, withDefaultLogger, type AdapterFixture } from '../../../tools/adapter-testing';
import { ORDERS } from '../../../tools/conformance/fixtures';
import { postJson } from '../../../tools/conformance/http';
import { paymentMiddleware } from '../src';
import { KOA_VERSIONS, startKoaApp, type KoaClass } from './support';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());
const hooks = captureConsoleInEachTest();

async function shop(App: KoaClass, options: PaymentRoutesOptions): Promise<string> {
  const payments = paymentMiddleware({ ...options, mountPath: '/payments' });
  const app = hooks.closeAfterTest(await startKoaApp(App, '/payments', payments, (koa) => koa.use(bodyParser()).use(payments)));
  fixture.mountedAt(app.routesUrl);
  return app.routesUrl;
}

/** A token of the right shape whose signature the service cannot verify (W02). */
function forgedToken(): { token: string; secrets: string[] } {
  const minted = fixture.sandbox.mintWalletToken();
  const token = JSON.stringify({ ...(JSON.parse(minted) as object), signature: Buffer.alloc(32, 7).toString('base64') });
  return { token, secrets: [minted, token] };
}

function onlyLine(): string {
  const lines = hooks.captured.paymount();
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

for (const [name, App] of KOA_VERSIONS) {
  describe(`${name}: failures a merchant can hit, with no logger option`, () => {
    it('a resolveOrder that throws: 500, and one line naming resolveOrder and its error', async () => {
      const routesUrl = await shop(App, {
        ...withDefaultLogger(fixture.options),
        resolveOrder: () => {
          throw new Error('orders table unreachable');
        },
      });
      const res = await postJson(`${routesUrl}/checkout`, { orderId: 'order-1' });
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' } });
      expect(res.text).not.toContain('orders table');
      const line = onlyLine();
      expect(line).toMatch(/^paymount error: paymount route failed /);
      expect(line).toContain('"route":"POST /checkout"');
      expect(line).toContain('orders table unreachable');
      expect(line).toContain('resolveOrder(orderId, ctx) threw');
      hooks.captured.expectNoSecret([fixture.sandbox.apiKey, fixture.sandbox.webhookSecret]);
    });

    it('an order that breaks a service rule: 500 INVALID_ORDER, and one line with the broken rule', async () => {
      const routesUrl = await shop(App, withDefaultLogger(fixture.options));
      const res = await postJson(`${routesUrl}/checkout`, { orderId: 'order-broken' });
      expect(res.status).toBe(500);
      expect((res.json as { error: { code: string } }).error.code).toBe('INVALID_ORDER');
      const line = onlyLine();
      expect(line).toContain('"code":"INVALID_ORDER"');
      expect(line).toContain('"referenceOrderId":"order-0003"');
      expect(line).toContain('"path":"amount.orderAmount"');
      expect(line).toContain('amounts are whole minor units');
      hooks.captured.expectNoSecret([fixture.sandbox.apiKey, fixture.sandbox.webhookSecret]);
    });

    it('a wallet token the service refuses: 502 SERVICE_REFUSED, and one line with the service’s code (W02) and reason, never the token', async () => {
      const routesUrl = await shop(App, withDefaultLogger(fixture.options));
      const { token, secrets } = forgedToken();
      const res = await postJson(`${routesUrl}/wallet/pay`, { orderId: 'order-1', token });
      expect(res.status).toBe(502);
      expect(res.json).toMatchObject({
        error: { code: 'SERVICE_REFUSED', message: 'The payment service refused the request.' },
      });
      const line = onlyLine();
      expect(line).toContain('"route":"POST /wallet/pay","status":502,"code":"SERVICE_REFUSED"');
      expect(line).toContain('"serviceCode":"W02"');
      expect(line).toContain('wallet token signature does not verify');
      hooks.captured.expectNoSecret([fixture.sandbox.apiKey, fixture.sandbox.webhookSecret, ...secrets]);
    });

    it('logger: false: none of these writes a line', async () => {
      const routesUrl = await shop(App, {
        ...fixture.options,
        resolveOrder: (orderId) => {
          if (orderId === 'order-crash') throw new Error('orders table unreachable');
          return ORDERS[orderId] ?? null;
        },
        logger: false,
      });
      expect((await postJson(`${routesUrl}/checkout`, { orderId: 'order-crash' })).status).toBe(500);
      expect((await postJson(`${routesUrl}/checkout`, { orderId: 'order-broken' })).status).toBe(500);
      expect(
        (
          await postJson(`${routesUrl}/wallet/pay`, { orderId: 'order-1', token: forgedToken().token })
        ).status,
      ).toBe(502);
      expect(hooks.captured.lines).toEqual([]);
    });
  });
}
