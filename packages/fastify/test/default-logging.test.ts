import type { PaymentRoutesOptions } from '@paymount/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { captureConsoleInEachTest, startAdapterFixture, withDefaultLogger, type AdapterFixture } from '../../../tools/adapter-testing';
import { postJson } from '../../../tools/conformance/http';
import { FASTIFY_VERSIONS, startFastifyApp, type FastifyFactory } from './support';

const hooks = captureConsoleInEachTest();

async function shop(fixture: AdapterFixture, fastify: FastifyFactory, options: PaymentRoutesOptions): Promise<string> {
  const app = hooks.closeAfterTest(await startFastifyApp(fastify, options));
  fixture.mountedAt(app.routesUrl);
  return app.routesUrl;
}

describe('a sandbox whose clock was moved, and routes without clock: sandbox.clock', () => {
  let fixture: AdapterFixture;
  // One attempt per delivery, so each refused delivery is exactly one refusal. A sandbox per test: each pays order-1,
  // and a service that already ran an order's payment answers the next shop's with that one.
  beforeEach(async () => {
    fixture = await startAdapterFixture({ webhookRetryDelaysMs: [] });
  });
  afterEach(() => fixture.close());

  /** Pays order-1 by wallet ten minutes ahead in service time; resolves the sandbox's delivery of that payment. */
  async function payAheadOfTime(routesUrl: string) {
    fixture.sandbox.clock.advance(10 * 60_000);
    const token = fixture.sandbox.mintWalletToken();
    const paid = await postJson(`${routesUrl}/wallet/pay`, { orderId: 'order-1', token });
    expect(paid.json).toMatchObject({ status: 'succeeded' });
    await fixture.sandbox.waitForDeliveries(10_000);
    const { transactionId } = paid.json as { transactionId: string };
    return { token, delivery: fixture.sandbox.deliveries().find((d) => d.payload.transactionId === transactionId) };
  }

  for (const [name, fastify] of FASTIFY_VERSIONS) {
    it(`${name}: the refused delivery writes one console line that names clock: sandbox.clock`, async () => {
      const routesUrl = await shop(fixture, fastify, withDefaultLogger(fixture.options));
      const { token, delivery } = await payAheadOfTime(routesUrl);
      expect(delivery?.state).toBe('failed');
      expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([400]);
      const lines = hooks.captured.paymount();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^paymount warn: paymount route refused a request /);
      expect(lines[0]).toContain('"route":"POST /webhook","status":400,"code":"WEBHOOK_FUTURE_TIMESTAMP"');
      expect(lines[0]).toContain("the client's clock option (sandbox.clientOptions() brings sandbox.clock) is not the routes' clock");
      expect(lines[0]).toContain('as in `{ ...options, clock: sandbox.clock }`');
      hooks.captured.expectNoSecret([fixture.sandbox.apiKey, fixture.sandbox.webhookSecret, token]);
    });

    it(`${name}: with clock: sandbox.clock the delivery is handled, and nothing is written`, async () => {
      const routesUrl = await shop(fixture, fastify, { ...withDefaultLogger(fixture.options), clock: fixture.sandbox.clock });
      const { delivery } = await payAheadOfTime(routesUrl);
      expect(delivery?.state).toBe('delivered');
      expect(hooks.captured.paymount()).toEqual([]);
    });

    it(`${name}: logger: false silences the refusal`, async () => {
      const routesUrl = await shop(fixture, fastify, { ...fixture.options, logger: false });
      expect((await payAheadOfTime(routesUrl)).delivery?.state).toBe('failed');
      expect(hooks.captured.lines).toEqual([]);
    });
  }
});

describe('a local notifyUrl with a client not in local development (an HTTPS sandbox)', () => {
  let fixture: AdapterFixture;
  beforeAll(async () => {
    fixture = await startAdapterFixture({ https: true });
  });
  afterAll(() => fixture.close());

  for (const [name, fastify] of FASTIFY_VERSIONS) {
    it(`${name}: checkout answers 500 INVALID_ORDER, and one console line says to set localDevelopment`, async () => {
      const client = {
        ...fixture.sandbox.clientOptions(),
        localDevelopment: false,
        retry: { maxAttempts: 1 },
      };
      const routesUrl = await shop(fixture, fastify, { ...withDefaultLogger(fixture.options), client });
      const res = await postJson(`${routesUrl}/checkout`, { orderId: 'order-1' });
      expect(res.status).toBe(500);
      expect((res.json as { error: { code: string } }).error.code).toBe('INVALID_ORDER');
      const lines = hooks.captured.paymount();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('"path":"notifyUrl","rule":"public_https"');
      expect(lines[0]).toContain('create the client with localDevelopment: true, as `sandbox.clientOptions()` does');
      hooks.captured.expectNoSecret([fixture.sandbox.apiKey, fixture.sandbox.webhookSecret]);
    });
  }
});
