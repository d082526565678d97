import { Module } from '@nestjs/common';
import type { PaymentRoutesOptions } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureConsoleInEachTest, startAdapterFixture, withDefaultLogger, type AdapterFixture } from '../../../tools/adapter-testing';
import { postRaw } from '../../../tools/conformance/http';
import { PaymentsModule } from '../src';
import { NEST_PLATFORMS, startNestApp, type NestPlatform } from './support';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());
const hooks = captureConsoleInEachTest();

/** The README's app as first written: no `rawBody: true`. */
async function appWithoutRawBody(platform: NestPlatform, options: PaymentRoutesOptions): Promise<string> {
  @Module({ imports: [PaymentsModule.forRoot(options)] })
  class AppModule {}
  const app = hooks.closeAfterTest(await startNestApp(AppModule, { platform, rawBody: false }));
  const routesUrl = `${app.url}/payments`;
  fixture.mountedAt(routesUrl);
  return routesUrl;
}

async function deliver(routesUrl: string, transactionId: string): Promise<void> {
  const delivery = fixture.delivery(transactionId);
  const res = await postRaw(`${routesUrl}/webhook`, delivery.body, delivery.headers);
  expect(res.status).toBe(500);
  expect((res.json as { error: { code: string } }).error.code).toBe('RAW_BODY_MISSING');
}

for (const platform of NEST_PLATFORMS) {
  describe(`Nest on ${platform}, created without rawBody: true, no logger option`, () => {
    it('a refused webhook delivery writes one console line saying to create the app with rawBody: true', async () => {
      const routesUrl = await appWithoutRawBody(platform, withDefaultLogger(fixture.options));
      await deliver(routesUrl, `TX-nest-log-${platform}`);
      const lines = hooks.captured.paymount();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^paymount error: paymount route failed /);
      expect(lines[0]).toContain('"route":"POST /webhook","status":500,"code":"RAW_BODY_MISSING"');
      expect(lines[0]).toContain('NestFactory.create(AppModule, { rawBody: true })');
      hooks.captured.expectNoSecret([fixture.sandbox.apiKey, fixture.sandbox.webhookSecret]);
    });

    it('logger: false silences it', async () => {
      const routesUrl = await appWithoutRawBody(platform, { ...fixture.options, logger: false });
      await deliver(routesUrl, `TX-nest-silent-${platform}`);
      expect(hooks.captured.paymount()).toEqual([]);
    });
  });
}
