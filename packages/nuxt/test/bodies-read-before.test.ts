import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import type { ConformanceApp } from '../../../tools/conformance';
import { startRemoteApp } from './support/remote-app';

// The test app's server middleware (test/nuxt-app/server/middleware/read-bodies.ts) reads each body before the routes:
// under /read-by-h3 through h3 (the header says how), under /read-past-h3 with readFormData, past h3's cache.
let fixture: AdapterFixture;
let app: ConformanceApp;
const logged: Array<{ level: string; fields: Record<string, unknown> }> = [];
beforeAll(async () => {
  fixture = await startAdapterFixture();
  const record = (level: string) => (fields: unknown) => void logged.push({ level, fields: fields as Record<string, unknown> });
  app = await startRemoteApp({ ...fixture.options, logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') } });
});
afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

/** POSTs `body` as sent; the answer's `readWith` is what the middleware read the body with (its `x-body-read-with` header). */
async function post(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', body, headers });
  const text = await res.text();
  return { status: res.status, readWith: res.headers.get('x-body-read-with'), json: JSON.parse(text) as unknown };
}

const eventsFor = (transactionId: string) => fixture.events.filter((event) => event.transactionId === transactionId);

for (const readWith of ['readBody', 'readRawBody']) {
  describe(`a server middleware awaiting ${readWith}(event), before the payment routes`, () => {
    it('a webhook is verified from the exact bytes h3 kept, and handled once', async () => {
      const transactionId = `TX-kept-${freshOrderId()}`;
      const delivery = fixture.delivery(transactionId);
      const res = await post(`${app.url}/read-by-h3/webhook`, delivery.body, { ...delivery.headers, 'x-read-with': readWith });
      expect(res.readWith).toBe(readWith);
      expect(res.json).toEqual({ received: true });
      expect(eventsFor(transactionId)).toHaveLength(1);
    });

    it('a wallet payment is paid from the body h3 kept', async () => {
      const paid = await post(`${app.url}/read-by-h3/wallet/pay`, JSON.stringify({ orderId: freshOrderId(), token: fixture.sandbox.mintWalletToken() }), {
        'content-type': 'application/json',
        'x-read-with': readWith,
      });
      expect(paid.readWith).toBe(readWith);
      expect(paid.status).toBe(200);
      expect(paid.json).toMatchObject({ status: 'succeeded' });
    });
  });
}

describe('a server middleware awaiting readFormData(event), which reads past h3, before the payment routes', () => {
  it('the webhook answers 500 BODY_ALREADY_CONSUMED (so the service retries), runs no handler, and logs the fix in Nitro’s words', async () => {
    logged.length = 0;
    const transactionId = `TX-taken-${freshOrderId()}`;
    const delivery = fixture.delivery(transactionId);
    const res = await post(`${app.url}/read-past-h3/webhook`, delivery.body, { ...delivery.headers, 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.readWith).toBe('readFormData');
    expect(res.status).toBe(500);
    expect((res.json as { error: { code: string } }).error.code).toBe('BODY_ALREADY_CONSUMED');
    expect(eventsFor(transactionId)).toEqual([]);
    expect(logged).toContainEqual({
      level: 'error',
      fields: expect.objectContaining({
        code: 'BODY_ALREADY_CONSUMED',
        fix: expect.stringMatching(/server\/middleware.*readFormData\(event\).*readBody\(event\).*event\.path\.startsWith\('\/payments\/'\)/),
      }),
    });
  });
});
