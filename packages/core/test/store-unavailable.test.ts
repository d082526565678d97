import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentRoutes, MemoryIdempotencyStore, PaymentStoreUnavailableError, signWebhook } from '../src/index';
import type { IdempotencyStore, Logger, PaymentRoutes } from '../src/index';
import type { NeutralRequest } from '../src/entries/http';
import { webhookPayload } from '../../../tools/conformance/fixtures';

const secret = 'whsec_store_outage_secret';
type Operation = 'claim' | 'release' | 'complete' | 'state';

/**
 * A working in-memory store whose operations can be made to fail, as a
 * store behind a lost connection does.
 */
class OutageStore implements IdempotencyStore {
  readonly inner = new MemoryIdempotencyStore();
  down = new Set<Operation>();

  private check(operation: Operation): void {
    if (this.down.has(operation)) throw new Error(`connect ECONNREFUSED 127.0.0.1:6379 (${operation})`);
  }
  async claim(key: string, ttlMs: number) {
    this.check('claim');
    return this.inner.claim(key, ttlMs);
  }
  async release(key: string) {
    this.check('release');
    return this.inner.release(key);
  }
  async complete(key: string, ttlMs: number) {
    this.check('complete');
    return this.inner.complete(key, ttlMs);
  }
  async state(key: string) {
    this.check('state');
    return this.inner.state(key);
  }
}

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const write = (obj: object | string, msg?: string) => void lines.push(`${String(msg)} ${JSON.stringify(obj)}`);
  return { logger: { debug: write, info: write, warn: write, error: write }, lines };
}

function delivery(deliveryId: string, transactionId: string): NeutralRequest {
  const { body, headers } = signWebhook({ payload: webhookPayload({ transactionId }), secret, deliveryId });
  return { method: 'POST', path: '/webhook', headers, query: {}, readBody: async () => Buffer.from(body) };
}

const opened: PaymentRoutes[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((handlers) => handlers.close()));
});

function setup(handler: () => void | Promise<void> = () => {}) {
  const store = new OutageStore();
  const log = capture();
  const runs: string[] = [];
  const handlers = createPaymentRoutes({
    client: { apiKey: 'sk_test_store_outage_0123', baseUrl: 'https://payments.example.com', appId: 'app1', merchantId: 'm1' },
    resolveOrder: () => null,
    webhook: { secret },
    store,
    logger: log.logger,
    on: {
      '*': async (event) => {
        runs.push(event.deliveryId);
        await handler();
      },
    },
  });
  opened.push(handlers);
  const send = async (request: NeutralRequest) => {
    const response = await handlers.handle(request);
    return { status: response?.status, body: JSON.parse(response?.body ?? 'null') as Record<string, { code?: string; message?: string }> };
  };
  return { store, log, runs, send };
}

describe('webhook route when the idempotency store fails', () => {
  it('answers 503 STORE_UNAVAILABLE without running a handler, and handles the retry once the store is back', async () => {
    const { store, runs, send, log } = setup();
    store.down.add('claim');
    const refused = await send(delivery('d1', 'T1'));
    expect(refused.status).toBe(503);
    expect(refused.body.error?.code).toBe('STORE_UNAVAILABLE');
    // The store's own error stays in the (redacting) log, not in the answer.
    expect(refused.body.error?.message).not.toContain('ECONNREFUSED');
    expect(log.lines.join('\n')).toContain('ECONNREFUSED');
    expect(runs).toEqual([]);

    store.down.clear();
    expect((await send(delivery('d1', 'T1'))).status).toBe(200);
    expect((await send(delivery('d1', 'T1'))).body).toEqual({ received: true, duplicate: true });
    expect(runs).toEqual(['d1']);
  });

  it('answers 200 when the handler ran but the store could not mark it done; the claim still stops a redelivery', async () => {
    const { store, runs, send, log } = setup();
    store.down.add('complete');
    expect((await send(delivery('d3', 'T3'))).status).toBe(200);
    expect(log.lines.some((line) => line.startsWith('idempotency store: a handled key could not be marked done'))).toBe(true);
    // The key still reads "processing" until its claim TTL ends, so a redelivery is asked to retry, and runs nothing.
    const again = await send(delivery('d3-again', 'T3'));
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe('WEBHOOK_IN_PROGRESS');
    expect(runs).toEqual(['d3']);
  });

  it('answers 503 and writes nothing when the store fails while telling who holds the event', async () => {
    const { store, runs, send } = setup();
    expect((await send(delivery('d6', 'T6'))).status).toBe(200);
    store.down.add('state');
    expect((await send(delivery('d6-again', 'T6'))).status).toBe(503);
    expect(store.inner.size).toBe(1);
    store.down.clear();
    expect((await send(delivery('d6-again', 'T6'))).body).toEqual({ received: true, duplicate: true });
    expect(runs).toEqual(['d6']);
  });

  it('still answers 500 WEBHOOK_HANDLER_FAILED when a handler fails and the claim cannot be released', async () => {
    const { store, send, log } = setup(() => {
      throw new Error('handler broke');
    });
    store.down.add('release');
    const answer = await send(delivery('d4', 'T4'));
    expect(answer.status).toBe(500);
    expect(answer.body.error?.code).toBe('WEBHOOK_HANDLER_FAILED');
    expect(log.lines.filter((line) => line.startsWith('idempotency store: a claim could not be released'))).toHaveLength(1);
  });

  it('keeps a PaymentStoreUnavailableError thrown by the store as it is', async () => {
    const throwing = setup();
    const thrown = new PaymentStoreUnavailableError('Redis is unreachable.');
    throwing.store.claim = async () => {
      throw thrown;
    };
    const answer = await throwing.send(delivery('d5', 'T5'));
    expect(answer.status).toBe(503);
    expect(answer.body.error?.code).toBe('STORE_UNAVAILABLE');
    // Not wrapped again ("The idempotency store could not be used: ..."): the store's own words are logged.
    const logged = throwing.log.lines.filter((line) => line.startsWith('paymount route failed'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('"message":"Redis is unreachable."');
    expect(throwing.runs).toEqual([]);
  });
});
