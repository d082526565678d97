import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { postRaw, send } from '../../../tools/conformance/http';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import type { ConformanceApp } from '../../../tools/conformance';
import { startElysiaAppWith } from './support/elysia-app';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());

const eventsFor = (transactionId: string) => fixture.events.filter((event) => event.transactionId === transactionId);

describe("an app's onParse reading every JSON body, registered before the plugin", () => {
  let app: ConformanceApp;
  const logged: Array<{ level: string; fields: Record<string, unknown> }> = [];
  beforeAll(async () => {
    const record = (level: string) => (fields: unknown) => void logged.push({ level, fields: fields as Record<string, unknown> });
    const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
    app = await startElysiaAppWith({ ...fixture.options, logger }, { jsonParser: 'before' });
    fixture.mountedAt(app.url);
  });
  afterAll(() => app.close());

  it('the webhook answers 500 BODY_ALREADY_CONSUMED (so the service retries), runs no handler, and logs the fix in Elysia words', async () => {
    logged.length = 0;
    const transactionId = `TX-parsed-${freshOrderId()}`;
    const delivery = fixture.delivery(transactionId);
    const res = await postRaw(`${app.url}/webhook`, delivery.body, { ...delivery.headers, 'content-type': 'application/json' });
    expect(res.status).toBe(500);
    expect((res.json as { error: { code: string; message: string } }).error).toEqual({
      code: 'BODY_ALREADY_CONSUMED',
      message: 'The request body was already read by another middleware. Mount the payment routes before any body parser.',
    });
    expect(eventsFor(transactionId)).toEqual([]);
    // Errors only: the routes' start-up credentials check logs at debug level, over the bridge, whenever its lines arrive.
    expect(logged.filter((line) => line.level === 'error')).toEqual([
      {
        level: 'error',
        fields: expect.objectContaining({
          route: 'POST /webhook',
          status: 500,
          code: 'BODY_ALREADY_CONSUMED',
          fix: expect.stringMatching(/onParse.*new Elysia\(\)\.use\(paymentPlugin\(options\)\)\.onParse.*\{ as: 'local' \}.*request\.clone\(\)\.json\(\)/),
        }),
      },
    ]);
  });

  it('routes without a body are served as usual', async () => {
    const config = await send(`${app.url}/wallet/config?orderId=${freshOrderId()}`);
    expect(config.status).toBe(200);
  });
});

describe("the same onParse registered after the plugin, as the logged fix says", () => {
  let app: ConformanceApp;
  beforeAll(async () => {
    app = await startElysiaAppWith(fixture.options, { jsonParser: 'after' });
    fixture.mountedAt(app.url);
  });
  afterAll(() => app.close());

  it('a webhook is verified from the exact bytes and handled once', async () => {
    const transactionId = `TX-unparsed-${freshOrderId()}`;
    const delivery = fixture.delivery(transactionId);
    const res = await postRaw(`${app.url}/webhook`, delivery.body, { ...delivery.headers, 'content-type': 'application/json' });
    expect(res.json).toEqual({ received: true });
    expect(eventsFor(transactionId)).toHaveLength(1);
  });
});
