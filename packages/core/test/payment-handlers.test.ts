import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentRoutes as create, MemoryIdempotencyStore, PaymentValidationError, signWebhook, silentLogger } from '../src/index';
import type { IdempotencyStore, PaymentEvent, PaymentRoutesOptions } from '../src/index';
import type { NeutralRequest } from '../src/entries/http';
import { clientOptions } from './support/fixtures';
import { validationErrorOf } from './support/validation-error';
import { ok, startServiceServer, type Reply } from './support/service-server';

const secret = 'whsec_handlers_test_secret';

const created: Array<{ close(): Promise<void> }> = [];
const createPaymentRoutes: typeof create = (opts) => {
  const handlers = create(opts);
  created.push(handlers);
  return handlers;
};
afterEach(async () => {
  await Promise.all(created.splice(0).map((handlers) => handlers.close()));
});

// These cases never reach the payment service: the client is configured but not called.
function options(overrides: Partial<PaymentRoutesOptions> = {}): PaymentRoutesOptions {
  return {
    client: { apiKey: 'sk_test_handlers_0123456789', baseUrl: 'https://payments.example.com', appId: 'app1', merchantId: 'm1' },
    resolveOrder: () => null,
    webhook: { secret },
    logger: false,
    ...overrides,
  };
}

function webhookRequest(
  payload: Record<string, unknown>,
  extra: { deliveryId?: string; timestamp?: number; parsedBody?: unknown } = {},
): NeutralRequest {
  const { body, headers } = signWebhook({
    payload,
    secret,
    ...(extra.deliveryId ? { deliveryId: extra.deliveryId } : {}),
    ...(extra.timestamp ? { timestamp: extra.timestamp } : {}),
  });
  return {
    method: 'POST',
    path: '/webhook',
    headers,
    query: {},
    readBody: async () => Buffer.from(body),
    ...(extra.parsedBody === undefined ? {} : { parsedBody: extra.parsedBody }),
  };
}

function walletPayRequest(token: string): NeutralRequest {
  return {
    method: 'POST',
    path: '/wallet/pay',
    headers: { 'content-type': 'application/json' },
    query: {},
    readBody: async () => Buffer.from(JSON.stringify({ orderId: 'o1', token })),
  };
}

const sale = (transactionId: string, transactionStatus = 'S') => ({
  transactionId,
  transactionRequestId: `req-${transactionId}`,
  transactionType: 'SALE',
  transactionStatus,
  referenceOrderId: 'order-0001',
  amount: { orderAmount: 1250, priceCurrency: 'USD' },
  ...(transactionStatus === 'S' ? {} : { reason: { code: 'CARD_DECLINED', message: 'card declined' } }),
});


describe('createPaymentRoutes options', () => {
  it('refuses a misspelt option, naming it', () => {
    const error = validationErrorOf(() => createPaymentRoutes({ ...options(), notifyURL: 'https://shop.example.com/hook' } as never));
    expect(error.message).toContain('notifyURL');
  });

  it('refuses a non-public notifyUrl unless the client is in local development', () => {
    const error = validationErrorOf(() => createPaymentRoutes(options({ notifyUrl: 'http://127.0.0.1/payments/webhook' })));
    expect(error.issues[0]).toMatchObject({ path: 'notifyUrl', rule: 'public_https' });
    const local = options({ notifyUrl: 'http://127.0.0.1/payments/webhook' });
    expect(() =>
      createPaymentRoutes({ ...local, client: { ...(local.client as object), localDevelopment: true } } as PaymentRoutesOptions),
    ).not.toThrow();
  });

  it('refuses a webhook secret with surrounding whitespace without quoting it', () => {
    const error = validationErrorOf(() => createPaymentRoutes(options({ webhook: { secret: `${secret}\n` } })));
    expect(error.issues[0]).toMatchObject({ path: 'webhook.secret', rule: 'no_surrounding_whitespace' });
    expect(error.message).not.toContain(secret);
  });

  it('refuses a webhook secret shorter than 16 characters at start-up, in `secret` or in `secrets`, without quoting it', () => {
    const weak = 'whsec_short';
    const single = validationErrorOf(() => createPaymentRoutes(options({ webhook: { secret: weak } })));
    expect(single.issues).toEqual([
      { path: 'webhook.secret', rule: 'min_length', message: 'must be the whole signing secret, at least 16 characters' },
    ]);
    const rotation = validationErrorOf(() => createPaymentRoutes(options({ webhook: { secrets: [secret, weak] } })));
    expect(rotation.issues.map((issue) => `${issue.path}:${issue.rule}`)).toEqual(['webhook.secrets.1:min_length']);
    expect(`${single.message} ${rotation.message}`).not.toContain(weak);
  });

  it('refuses an API key shorter than 16 characters in the client options it creates the client from', () => {
    const error = validationErrorOf(() =>
      createPaymentRoutes(options({ client: { apiKey: 'sk_test_12', baseUrl: 'https://payments.example.com', appId: 'app1', merchantId: 'm1' } })),
    );
    expect(error.issues.map((issue) => `${issue.path}:${issue.rule}`)).toEqual(['client.apiKey:min_length']);
    expect(error.message).not.toContain('sk_test_12');
  });

  it('refuses an allowedOrigins entry that is not an origin', () => {
    const error = validationErrorOf(() =>
      createPaymentRoutes(options({ allowedOrigins: ['https://shop.example', 'https://shop.example/', 'shop.example', 'ftp://shop.example'] })),
    );
    expect(error.issues.map((issue) => `${issue.path}:${issue.rule}`)).toEqual([
      'allowedOrigins.1:origin',
      'allowedOrigins.2:origin',
      'allowedOrigins.3:origin',
    ]);
  });

  it('needs exactly one of secret and secrets', () => {
    expect(validationErrorOf(() => createPaymentRoutes(options({ webhook: {} as never }))).issues[0]?.rule).toBe('one_secret_option');
    expect(
      validationErrorOf(() => createPaymentRoutes(options({ webhook: { secret, secrets: [secret] } as never }))).issues[0]?.rule,
    ).toBe('one_secret_option');
  });

  it('refuses a signed-time setting it cannot use, and a dedupe TTL shorter than the replay window', () => {
    const issueOf = (webhook: Record<string, unknown>) =>
      validationErrorOf(() => createPaymentRoutes(options({ webhook: { secret, ...webhook } as never }))).issues[0];
    expect(issueOf({ signedTimeField: '' })).toMatchObject({ path: 'webhook.signedTimeField', rule: 'min_length' });
    expect(issueOf({ requireSignedTime: 'yes' })).toMatchObject({ path: 'webhook.requireSignedTime', rule: 'type' });
    expect(issueOf({ dedupeTtlMs: 9 * 60_000 })).toMatchObject({ path: 'webhook.dedupeTtlMs', rule: 'covers_replay_window' });
    expect(issueOf({ toleranceMs: 13 * 60 * 60_000 })).toMatchObject({ path: 'webhook.dedupeTtlMs', rule: 'covers_replay_window' });
    expect(() => createPaymentRoutes(options({ webhook: { secret, dedupeTtlMs: 10 * 60_000 } }))).not.toThrow();
  });

  it('refuses wallet settings the wallet request would refuse on every GET /wallet/config', () => {
    const error = validationErrorOf(() =>
      createPaymentRoutes(options({ wallet: { gatewayId: 'gw', allowedCardNetworks: ['visa'], countryCode: 'usa' } })),
    );
    expect(error.issues.map((issue) => `${issue.path}:${issue.rule}`)).toEqual([
      'wallet.allowedCardNetworks.0:pattern',
      'wallet.countryCode:pattern',
    ]);
  });

  it('refuses a misspelt event name, in options and in on()', () => {
    expect(validationErrorOf(() => createPaymentRoutes(options({ on: { 'payment.success': () => {} } as never }))).message).toContain(
      'payment.succeeded',
    );
    const handlers = createPaymentRoutes(options());
    expect(() => handlers.on('payment.done' as never, () => {})).toThrow(PaymentValidationError);
  });

  it('reads bodies up to the larger of the route and webhook limits', () => {
    expect(createPaymentRoutes(options({ bodyLimitBytes: 1000, webhook: { secret, maxBodyBytes: 5000 } })).readLimitBytes).toBe(5000);
    expect(createPaymentRoutes(options({ bodyLimitBytes: 200_000 })).readLimitBytes).toBe(200_000);
  });
});

describe('handle()', () => {
  it('answers undefined for paths that are not payment routes, 405 with Allow for a wrong method', async () => {
    const handlers = createPaymentRoutes(options());
    expect(await handlers.handle({ method: 'GET', path: '/elsewhere', headers: {}, query: {} })).toBeUndefined();
    const wrong = await handlers.handle({ method: 'DELETE', path: '/wallet/config/', headers: {}, query: {} });
    expect(wrong).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } });
  });

  it('marks every answer of a payment route with x-paymount-route, the route it came from, failures and 405 included', async () => {
    const handlers = createPaymentRoutes(options());
    const handled = await handlers.handle(webhookRequest(sale('T0')));
    expect(handled).toMatchObject({ status: 200, headers: { 'x-paymount-route': 'webhook' } });
    const badSignature = await handlers.handle({ ...webhookRequest(sale('T0b')), headers: { 'x-signature': 'f'.repeat(64) } });
    expect(badSignature?.status).toBe(400);
    expect(badSignature?.headers['x-paymount-route']).toBe('webhook');
    const wrongMethod = await handlers.handle({ method: 'GET', path: '/webhook/', headers: {}, query: {} });
    expect(wrongMethod).toMatchObject({ status: 405, headers: { 'x-paymount-route': 'webhook' } });
    const status = await handlers.handle({ method: 'GET', path: '/status', headers: {}, query: {} });
    expect(status?.headers['x-paymount-route']).toBe('status');
  });

  it('dispatches to named handlers first, then catch-all ones, each in subscription order', async () => {
    const calls: string[] = [];
    const handlers = createPaymentRoutes(
      options({ on: { '*': () => void calls.push('all (option)'), 'payment.succeeded': () => void calls.push('succeeded (option)') } }),
    );
    handlers.on('payment.succeeded', () => void calls.push('succeeded (runtime)'));
    handlers.on('payment.failed', () => void calls.push('failed'));
    const response = await handlers.handle(webhookRequest(sale('T1')));
    expect(response?.status).toBe(200);
    expect(calls).toEqual(['succeeded (option)', 'succeeded (runtime)', 'all (option)']);
  });

  it('stops calling a handler once unsubscribed', async () => {
    const seen: PaymentEvent[] = [];
    const handlers = createPaymentRoutes(options());
    const off = handlers.on('*', (event) => void seen.push(event));
    await handlers.handle(webhookRequest(sale('T2')));
    off();
    await handlers.handle(webhookRequest(sale('T3')));
    expect(seen.map((event) => event.transactionId)).toEqual(['T2']);
  });

  it('hands the request context to event handlers', async () => {
    const contexts: unknown[] = [];
    const handlers = createPaymentRoutes(options({ on: { '*': (_event, ctx) => void contexts.push(ctx.context) } }));
    await handlers.handle({ ...webhookRequest(sale('T4')), context: { framework: 'request' } });
    expect(contexts).toEqual([{ framework: 'request' }]);
  });

  it('refuses a webhook body a parser already turned into an object, with 500 and the fix', async () => {
    let ran = false;
    const handlers = createPaymentRoutes(options({ on: { '*': () => void (ran = true) } }));
    const response = await handlers.handle(webhookRequest(sale('T5'), { parsedBody: sale('T5') }));
    expect(response?.status).toBe(500);
    expect(JSON.parse(response!.body)).toMatchObject({ error: { code: 'WEBHOOK_BODY_ALREADY_PARSED' } });
    expect(response!.body).toContain('mount the webhook route before any JSON body parser');
    expect(ran).toBe(false);
  });

  it('verifies a webhook body a raw parser kept as bytes', async () => {
    const handlers = createPaymentRoutes(options());
    const request = webhookRequest(sale('T6'));
    const bytes = await request.readBody!();
    const response = await handlers.handle({ ...request, readBody: undefined, parsedBody: bytes });
    expect(response?.status).toBe(200);
  });

  /** A handler held on a gate, failing or not when released, counting its runs and effects. */
  function gatedHandler() {
    let open!: (fail: boolean) => void;
    let gate = new Promise<boolean>((resolve) => (open = resolve));
    const counts = { runs: 0, effects: 0 };
    return {
      counts,
      release: (fail: boolean) => open(fail),
      handler: async () => {
        counts.runs += 1;
        const fail = await gate;
        // Later runs pass straight through.
        gate = Promise.resolve(false);
        if (fail) throw new Error('handler failed');
        counts.effects += 1;
      },
    };
  }

  it('refuses a delivery of an event still being handled with 409 and Retry-After; its retry is then a duplicate', async () => {
    const gated = gatedHandler();
    const warnings: unknown[] = [];
    const logger = { ...silentLogger, warn: (...args: unknown[]) => void warnings.push(args[1]) };
    const handlers = createPaymentRoutes(options({ on: { '*': gated.handler }, logger }));
    const first = handlers.handle(webhookRequest(sale('T7'), { deliveryId: 'a' }));
    const second = await handlers.handle(webhookRequest(sale('T7'), { deliveryId: 'b' }));
    expect(second?.status).toBe(409);
    // A refused delivery is a warning, so the default console logger shows it.
    expect(warnings).toContain('webhook delivery refused while the same event is being handled; the service will retry');
    expect(second?.headers['retry-after']).toBe('2');
    expect(JSON.parse(second!.body)).toEqual({
      error: { code: 'WEBHOOK_IN_PROGRESS', message: 'The same event is being handled by another delivery; retry later.' },
    });
    gated.release(false);
    expect((await first)?.status).toBe(200);
    const retried = await handlers.handle(webhookRequest(sale('T7'), { deliveryId: 'b' }));
    expect(JSON.parse(retried!.body)).toEqual({ received: true, duplicate: true });
    expect(gated.counts).toEqual({ runs: 1, effects: 1 });
  });

  it('an event whose first delivery fails while a second is refused in flight is handled by the retry of the second', async () => {
    const gated = gatedHandler();
    const handlers = createPaymentRoutes(options({ on: { '*': gated.handler } }));
    const first = handlers.handle(webhookRequest(sale('T7b'), { deliveryId: 'a' }));
    expect((await handlers.handle(webhookRequest(sale('T7b'), { deliveryId: 'b' })))?.status).toBe(409);
    gated.release(true);
    expect((await first)?.status).toBe(500);
    // The refused delivery freed its own claim, so its retry is processed, not taken for a duplicate.
    const retried = await handlers.handle(webhookRequest(sale('T7b'), { deliveryId: 'b' }));
    expect(JSON.parse(retried!.body)).toEqual({ received: true });
    expect(gated.counts).toEqual({ runs: 2, effects: 1 });
  });

  it('a retry of the very delivery still being handled is refused with 409 too', async () => {
    const gated = gatedHandler();
    const handlers = createPaymentRoutes(options({ on: { '*': gated.handler } }));
    const first = handlers.handle(webhookRequest(sale('T7c'), { deliveryId: 'same' }));
    expect((await handlers.handle(webhookRequest(sale('T7c'), { deliveryId: 'same' })))?.status).toBe(409);
    gated.release(false);
    expect((await first)?.status).toBe(200);
    expect(JSON.parse((await handlers.handle(webhookRequest(sale('T7c'), { deliveryId: 'same' })))!.body)).toEqual({
      received: true,
      duplicate: true,
    });
    expect(gated.counts.effects).toBe(1);
  });

  it('a claim left by a crashed instance frees after processingTtlMs, so a retry of the service is handled', async () => {
    let now = Date.now();
    const clock = { now: () => now };
    const store = new MemoryIdempotencyStore({ clock });
    // The first instance starts handling and never finishes, as if its process died.
    const crashed = createPaymentRoutes(options({ store, clock, on: { '*': gatedHandler().handler } }));
    void crashed.handle(webhookRequest(sale('T7e'), { deliveryId: 'a' }));
    let runs = 0;
    const survivor = createPaymentRoutes(options({ store, clock, on: { '*': () => void (runs += 1) } }));
    expect((await survivor.handle(webhookRequest(sale('T7e'), { deliveryId: 'a' })))?.status).toBe(409);
    now += 24_000;
    expect((await survivor.handle(webhookRequest(sale('T7e'), { deliveryId: 'a' })))?.status).toBe(409);
    // Past the default 25 s, still inside the service's ~31 s of retries.
    now += 2_000;
    expect(JSON.parse((await survivor.handle(webhookRequest(sale('T7e'), { deliveryId: 'a' })))!.body)).toEqual({ received: true });
    expect(runs).toBe(1);
  });

  it('processingTtlMs is an option', async () => {
    let now = Date.now();
    const clock = { now: () => now };
    const store = new MemoryIdempotencyStore({ clock });
    const webhook = { secret, processingTtlMs: 60_000 };
    const crashed = createPaymentRoutes(options({ store, clock, webhook, on: { '*': gatedHandler().handler } }));
    void crashed.handle(webhookRequest(sale('T7f'), { deliveryId: 'a' }));
    const survivor = createPaymentRoutes(options({ store, clock, webhook }));
    expect((await survivor.handle(webhookRequest(sale('T7f'), { deliveryId: 'a' })))?.status).toBe(409);
    now += 30_000;
    expect((await survivor.handle(webhookRequest(sale('T7f'), { deliveryId: 'a' })))?.status).toBe(409);
    now += 31_000;
    expect((await survivor.handle(webhookRequest(sale('T7f'), { deliveryId: 'a' })))?.status).toBe(200);
  });

  it('refuses a wallet token that is not the wallet token JSON text with 400, never quoting it, before any service call', async () => {
    let looked = 0;
    const handlers = createPaymentRoutes(
      options({
        resolveOrder: () => {
          looked += 1;
          return { referenceOrderId: 'order-0001', amount: { orderAmount: 100, priceCurrency: 'USD' }, description: 'x' };
        },
      }),
    );
    const valid = JSON.stringify({ protocolVersion: 'ECv2', signature: 'sig', signedMessage: 'msg' });
    for (const token of ['tok_not_json_secret_value', '{"protocolVersion":"ECv2"}', '["protocolVersion"]', JSON.stringify(valid)]) {
      const response = await handlers.handle(walletPayRequest(token));
      expect(response?.status).toBe(400);
      expect(JSON.parse(response!.body)).toEqual({
        error: {
          code: 'VALIDATION_ERROR',
          message:
            'Invalid wallet payment request: token must be the wallet token JSON text (an object with protocolVersion, signature and signedMessage)',
        },
      });
      expect(response!.body).not.toContain(token);
    }
    expect(looked).toBe(0);
  });

  it('refuses a store without complete() or state() when the handlers are created, naming the field', () => {
    const held = new Set<string>();
    // A store written against the old optional methods: it could not tell an event in flight from one handled.
    const store = {
      claim: async (key: string) => (held.has(key) ? false : (held.add(key), true)),
      release: async (key: string) => void held.delete(key),
    } as unknown as IdempotencyStore;
    let thrown: unknown;
    try {
      createPaymentRoutes(options({ store }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PaymentValidationError);
    expect((thrown as PaymentValidationError).issues).toEqual([
      expect.objectContaining({ path: 'store', message: 'must be an IdempotencyStore with claim(), release(), complete() and state()' }),
    ]);
    expect(held.size).toBe(0);
  });

  it('refuses a body whose signed time is past the window, whatever its fresh X-Timestamp: 400 WEBHOOK_STALE_EVENT, nothing run or stored', async () => {
    let now = Date.now();
    const clock = { now: () => now };
    const store = new MemoryIdempotencyStore({ clock });
    let runs = 0;
    const handlers = createPaymentRoutes(options({ store, clock, on: { '*': () => void (runs += 1) } }));
    const payload = { ...sale('T9'), notifyTime: new Date(now).toISOString() };
    const deliver = () => handlers.handle(webhookRequest(payload, { timestamp: now }));
    expect((await deliver())?.status).toBe(200);
    now += 5 * 60_000 + 1;
    const replayed = await deliver();
    expect(replayed?.status).toBe(400);
    expect(JSON.parse(replayed!.body)).toEqual({
      error: {
        code: 'WEBHOOK_STALE_EVENT',
        message:
          "The event's signed notifyTime is older than the allowed 300000 ms: a replayed delivery (its X-Timestamp is not signed and does not count) or one delivered too late.",
      },
    });
    expect(runs).toBe(1);
    expect(store.size).toBe(1);
  });

  it('reads the signed time from webhook.signedTimeField, as ISO 8601 or epoch milliseconds', async () => {
    const handlers = createPaymentRoutes(options({ webhook: { secret, signedTimeField: 'sentAt' } }));
    const post = (payload: Record<string, unknown>) => handlers.handle(webhookRequest(payload));
    const old = Date.now() - 6 * 60_000;
    expect((await post({ ...sale('T10'), sentAt: old }))?.status).toBe(400);
    expect((await post({ ...sale('T10'), sentAt: new Date(old).toISOString() }))?.status).toBe(400);
    // The default field no longer counts once another is named.
    expect((await post({ ...sale('T10'), notifyTime: old, sentAt: Date.now() }))?.status).toBe(200);
  });

  it('without a signed time: refused when webhook.requireSignedTime is set, otherwise accepted with one warning', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (_: unknown, msg?: string) => void warnings.push(String(msg)) };
    const strict = createPaymentRoutes(options({ webhook: { secret, requireSignedTime: true } }));
    const lenient = createPaymentRoutes(options({ logger }));
    const refused = await strict.handle(webhookRequest(sale('T11')));
    expect(refused?.status).toBe(400);
    expect(JSON.parse(refused!.body).error.code).toBe('WEBHOOK_MISSING_SIGNED_TIME');
    expect((await lenient.handle(webhookRequest(sale('T11'))))?.status).toBe(200);
    expect((await lenient.handle(webhookRequest(sale('T12'))))?.status).toBe(200);
    expect(warnings.filter((msg) => msg.startsWith('webhook deliveries carry no signed notifyTime'))).toHaveLength(1);
  });
});

describe('POST /wallet/pay answer', () => {
  const token = JSON.stringify({ protocolVersion: 'ECv2', signature: 'sig', signedMessage: 'secret-signed-message' });

  /** The route in front of a scripted service: the sandbox always answers a clean code, so odd answers are scripted. */
  async function payAgainst(reply: Reply) {
    const server = await startServiceServer(() => reply);
    created.push(server);
    const handlers = createPaymentRoutes(
      options({
        client: clientOptions(server.url),
        resolveOrder: () => ({ referenceOrderId: 'order-0001', amount: { orderAmount: 100, priceCurrency: 'USD' }, description: 'x' }),
      }),
    );
    const response = await handlers.handle(walletPayRequest(token));
    return { status: response?.status, body: JSON.parse(response!.body) as Record<string, unknown>, text: response!.body };
  }

  it('answers the service\'s transactionResultCode of a declined payment, preferred over reason.code', async () => {
    const answer = await payAgainst(
      ok({ transactionStatus: 'F', transactionId: 'txn_9', transactionResultCode: 'DO_NOT_HONOR', reason: { code: 'CARD_DECLINED' } }),
    );
    expect(answer).toMatchObject({ status: 200, body: { status: 'failed', transactionId: 'txn_9', resultCode: 'DO_NOT_HONOR' } });
  });

  it('answers no resultCode for a payment that went through', async () => {
    const answer = await payAgainst(ok({ transactionStatus: 'S', transactionId: 'txn_9', transactionResultCode: 'APPROVED' }));
    expect(answer.body).toEqual({ status: 'succeeded', referenceOrderId: 'order-0001', transactionRequestId: expect.any(String), transactionId: 'txn_9' });
  });

  it('never answers a reason that is not a short code: free text could quote what the service was sent', async () => {
    const answer = await payAgainst(ok({ transactionStatus: 'F', transactionResultCode: `declined: ${token}` }));
    expect(answer.body).toEqual({ status: 'failed', referenceOrderId: 'order-0001', transactionRequestId: expect.any(String) });
    expect(answer.text).not.toContain('secret-signed-message');
  });
});
