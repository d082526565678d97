import { afterAll, describe, expect, it } from 'vitest';
import { webhookPayload } from '../../../tools/conformance/fixtures';
import { createFetchHandler, signWebhook } from '../src/index';
import type { PaymentRoutesOptions } from '../src/index';

const secret = 'whsec_fetch_handler_secret';
const options: PaymentRoutesOptions = {
  // Never called: these cases stop before the payment service.
  client: { apiKey: 'sk_test_fetch_0123456789', baseUrl: 'https://payments.example.com', appId: 'app1', merchantId: 'm1' },
  resolveOrder: () => null,
  webhook: { secret, maxBodyBytes: 2_000 },
  wallet: { gatewayId: 'gateway-1' },
  bodyLimitBytes: 1_000,
  logger: false,
};
const handler = createFetchHandler(options, { mountPath: '/payments/' });
afterAll(() => handler.paymentRoutes.close());

function stream(totalBytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      sent += 500;
      controller.enqueue(new Uint8Array(500).fill(32));
    },
  });
}

describe('createFetchHandler', () => {
  it('answers a JSON 404 outside the routes and outside the mount path by default', async () => {
    for (const path of ['/payments/elsewhere', '/checkout', '/paymentsx/checkout']) {
      const response = await handler(new Request(`http://127.0.0.1${path}`, { method: 'POST' }));
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No route here.' } });
    }
  });

  it("judges a form post's Origin against the Request URL's host when the runtime passes no Host header", async () => {
    const form = (origin: string) =>
      handler(
        new Request('https://shop.example/payments/checkout', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
          body: 'orderId=o-1',
        }),
      );
    // 404: past the origin check, the order is unknown.
    expect((await form('https://shop.example')).status).toBe(404);
    expect((await form('https://attacker.example')).status).toBe(403);
  });

  it('stops reading a streamed body past the limit and answers 413', async () => {
    const response = await handler(
      new Request('http://127.0.0.1/payments/checkout', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream(50_000),
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
  });

  it('cancels the body stream it was reading at the read deadline, so the runtime stops taking the body in, and answers 408', async () => {
    const slow = createFetchHandler({ ...options, bodyReadTimeoutMs: 200 }, { mountPath: '/payments' });
    let cancelled!: (reason: unknown) => void;
    const cancel = new Promise<unknown>((resolve) => (cancelled = resolve));
    // A sender that sends one byte and then nothing: only the deadline ends the read.
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new Uint8Array([123])),
      cancel: (reason) => cancelled(reason ?? 'cancelled'),
    });
    try {
      const response = await slow(
        new Request('http://127.0.0.1/payments/wallet/pay', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' }),
      );
      expect(response.status).toBe(408);
      expect(await response.json()).toMatchObject({ error: { code: 'BODY_READ_TIMEOUT' } });
      const notCancelled = new Promise((resolve) => setTimeout(() => resolve('still being read 5 s after the 408'), 5_000).unref());
      expect(await Promise.race([cancel.then(() => 'cancelled'), notCancelled])).toBe('cancelled');
    } finally {
      await slow.paymentRoutes.close();
    }
  });

  it('verifies a webhook from the Request body bytes', async () => {
    const { body, headers } = signWebhook({ payload: webhookPayload({ transactionId: 'T1' }), secret });
    const response = await handler(new Request('http://127.0.0.1/payments/webhook', { method: 'POST', headers, body }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
  });

  it.each([
    ['read to the end (await request.json())', async (request: Request) => void (await request.json())],
    ['locked by a reader that read nothing', async (request: Request) => void request.body?.getReader()],
  ])('answers a body a middleware already %s 500 BODY_ALREADY_CONSUMED, naming the fix in the log', async (_how, consume) => {
    const logged: unknown[] = [];
    const record = (fields: unknown) => void logged.push(fields);
    const routes = createFetchHandler(
      { ...options, logger: { debug: record, info: record, warn: record, error: record } },
      { mountPath: '/payments' },
    );
    try {
      const { body, headers } = signWebhook({ payload: webhookPayload({ transactionId: 'T-consumed' }), secret });
      const requests = [
        new Request('http://127.0.0.1/payments/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"o-1"}' }),
        new Request('http://127.0.0.1/payments/webhook', { method: 'POST', headers, body }),
      ];
      for (const request of requests) {
        await consume(request);
        const response = await routes(request);
        expect(response.status).toBe(500);
        expect(await response.json()).toEqual({
          error: { code: 'BODY_ALREADY_CONSUMED', message: expect.stringContaining('already read') },
        });
      }
      expect(logged).toEqual([
        expect.objectContaining({ code: 'BODY_ALREADY_CONSUMED', fix: expect.stringContaining('request.clone()') }),
        expect.objectContaining({ code: 'BODY_ALREADY_CONSUMED', fix: expect.stringContaining('request.clone()') }),
      ]);
    } finally {
      await routes.paymentRoutes.close();
    }
  });

  it("hands a framework's own request event to resolveOrder, and the Request when none is given", async () => {
    const seen: unknown[] = [];
    const routes = createFetchHandler<{ framework: string } | Request>(
      { ...options, resolveOrder: (_orderId, ctx) => void seen.push(ctx.context) },
      { mountPath: '/payments' },
    );
    try {
      const config = (orderId: string) => new Request(`http://127.0.0.1/payments/wallet/config?orderId=${orderId}`);
      const event = { framework: 'event' };
      const withEvent = config('o-1');
      const alone = config('o-2');
      expect((await routes(withEvent, { context: event })).status).toBe(404);
      expect((await routes(alone)).status).toBe(404);
      expect(seen).toEqual([event, alone]);
      expect(seen[1]).toBe(alone);
    } finally {
      await routes.paymentRoutes.close();
    }
  });

  it("logs a consumed body's fix in the framework's words, and reads the bytes a framework kept instead of the spent stream", async () => {
    const logged: { fix?: string }[] = [];
    const record = (fields: unknown) => void logged.push(fields as { fix?: string });
    const fix = 'read `event.request.clone()` in the hook';
    const routes = createFetchHandler(
      { ...options, logger: { debug: record, info: record, warn: record, error: record } },
      { mountPath: '/payments', consumedBodyFix: fix },
    );
    try {
      const delivery = () => {
        const { body, headers } = signWebhook({ payload: webhookPayload({ transactionId: 'T-kept' }), secret });
        return { body, request: new Request('http://127.0.0.1/payments/webhook', { method: 'POST', headers, body }) };
      };
      const spent = delivery();
      await spent.request.text();
      expect((await routes(spent.request)).status).toBe(500);
      expect(logged).toEqual([expect.objectContaining({ code: 'BODY_ALREADY_CONSUMED', fix })]);

      const kept = delivery();
      await kept.request.text();
      const response = await routes(kept.request, { keptBody: kept.body });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true });
    } finally {
      await routes.paymentRoutes.close();
    }
  });

  it('keeps repeated query values, so an orderId list is refused rather than half-read', async () => {
    const response = await handler(new Request('http://127.0.0.1/payments/wallet/config?orderId=a&orderId=b'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('orderId');
  });
});
