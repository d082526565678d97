import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentRoutes, dedupeKeyOf, MemoryIdempotencyStore } from '../src/index';
import type { IdempotencyStore, Logger, PaymentRoutes, PaymentRoutesOptions } from '../src/index';
import { normalizeEvent } from '../src/entries/internal';
import { sale, signedDelivery } from './support/signed-sale';

const secret = 'whsec_heartbeat_test_secret';
/** Small on purpose: the handlers below run five times longer than a claim lives unrenewed. */
const PROCESSING_TTL_MS = 300;
const SLOW_HANDLER_MS = 1_500;
/**
 * Where the verdict is that a live handler keeps its claim: renewed every third of it, a renewal may come 2 s
 * late (a busy machine) before the claim lapses. Its handler runs twice as long.
 */
const KEPT_TTL_MS = 3_000;
/** The dedupe key comes from the signed body alone: any delivery id and time give the same one. */
const ORIGIN = { deliveryId: 'any', timestamp: 0 };

const open: PaymentRoutes[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((routes) => routes.close()));
});

interface Line {
  level: keyof Logger;
  msg: string;
  fields: Record<string, unknown>;
}

function capture(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: keyof Logger) =>
    (objOrMsg: object | string, msg?: string): void =>
      void lines.push(
        typeof objOrMsg === 'string' ? { level, msg: objOrMsg, fields: {} } : { level, msg: msg ?? '', fields: objOrMsg as Record<string, unknown> },
      );
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

function routes(store: IdempotencyStore, handler: () => Promise<void>, logger: Logger | false = false, processingTtlMs = PROCESSING_TTL_MS): PaymentRoutes {
  const options: PaymentRoutesOptions = {
    client: { apiKey: 'sk_test_heartbeat_0123456789', baseUrl: 'https://payments.example.com', appId: 'app1', merchantId: 'm1' },
    resolveOrder: () => null,
    webhook: { secret, processingTtlMs },
    store,
    on: { '*': handler },
    logger,
  };
  const created = createPaymentRoutes(options);
  open.push(created);
  return created;
}

const delivery = (payload: Record<string, unknown>) => signedDelivery(payload, secret);

/** The memory store, counting renewals: a heartbeat left running after its handler would keep counting. */
class CountingStore extends MemoryIdempotencyStore {
  renewals = 0;
  override renew(key: string, ttlMs: number): Promise<boolean> {
    this.renewals += 1;
    return super.renew(key, ttlMs);
  }
}

/** Waits `ttlMs` (three beats of a heartbeat on that TTL) and answers whether `store` was renewed meanwhile. */
async function renewedLater(store: CountingStore, ttlMs = 2 * PROCESSING_TTL_MS): Promise<boolean> {
  const before = store.renewals;
  await sleep(ttlMs);
  return store.renewals !== before;
}

describe('the claim of a running handler is renewed while it runs', () => {
  it('a handler running twice processingTtlMs runs once: every re-delivery meanwhile is refused 409, and the heartbeat stops with it', async () => {
    let runs = 0;
    const store = new CountingStore();
    const app = routes(
      store,
      async () => {
        runs += 1;
        await sleep(2 * KEPT_TTL_MS);
      },
      false,
      KEPT_TTL_MS,
    );
    const first = app.handle(delivery(sale('T-slow')));
    const redelivered: number[] = [];
    // Over 4 s: past the TTL, and 2 s before the handler ends.
    for (let sent = 0; sent < 8; sent += 1) {
      await sleep(KEPT_TTL_MS / 6);
      redelivered.push((await app.handle(delivery(sale('T-slow'))))!.status);
    }
    expect((await first)?.status).toBe(200);
    expect(redelivered).toEqual(Array.from({ length: 8 }, () => 409));
    expect(runs).toBe(1);
    expect(store.renewals).toBeGreaterThanOrEqual(3);
    expect(JSON.parse((await app.handle(delivery(sale('T-slow'))))!.body)).toEqual({ received: true, duplicate: true });
    expect(await renewedLater(store, KEPT_TTL_MS)).toBe(false);
  });

  it('stops renewing when the handler throws: the claim is released and the retry runs the event', async () => {
    let runs = 0;
    const store = new CountingStore();
    const app = routes(store, async () => {
      runs += 1;
      await sleep(2 * PROCESSING_TTL_MS);
      if (runs === 1) throw new Error('the order database is unavailable');
    });
    expect((await app.handle(delivery(sale('T-throws'))))?.status).toBe(500);
    expect(store.renewals).toBeGreaterThanOrEqual(1);
    expect(await renewedLater(store)).toBe(false);
    expect((await app.handle(delivery(sale('T-throws'))))?.status).toBe(200);
    expect(runs).toBe(2);
  });

  it('a renewal that fails (the store is unreachable) is logged with what to check, and retried at the next beat', async () => {
    const memory = new MemoryIdempotencyStore();
    let renewals = 0;
    const unreachable: IdempotencyStore = {
      claim: (key, ttlMs) => memory.claim(key, ttlMs),
      release: (key) => memory.release(key),
      complete: (key, ttlMs) => memory.complete(key, ttlMs),
      state: (key) => memory.state(key),
      renew: async () => {
        renewals += 1;
        throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      },
    };
    const log = capture();
    const app = routes(unreachable, () => sleep(SLOW_HANDLER_MS), log.logger);
    expect((await app.handle(delivery(sale('T-down'))))?.status).toBe(200);
    const failures = log.lines.filter((line) => line.level === 'error' && line.msg.includes('could not be renewed'));
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(failures.length).toBe(renewals);
    expect(failures[0]?.msg).toContain('Check that the store is reachable');
    expect(failures[0]?.fields['key']).toBe(await dedupeKeyOf(normalizeEvent(sale('T-down'), ORIGIN)));
  });

  it('a claim lost while its handler runs (expired or taken) is logged once, with the fix, and no longer renewed', async () => {
    const store = new MemoryIdempotencyStore();
    const key = await dedupeKeyOf(normalizeEvent(sale('T-lost'), ORIGIN));
    const log = capture();
    const app = routes(
      store,
      async () => {
        await sleep(PROCESSING_TTL_MS / 2);
        // What another instance sees once this claim lapsed: the key free for anyone to take.
        await store.release(key);
        await sleep(SLOW_HANDLER_MS);
      },
      log.logger,
    );
    expect((await app.handle(delivery(sale('T-lost'))))?.status).toBe(200);
    const lost = log.lines.filter((line) => line.level === 'error' && line.msg.includes('was lost'));
    expect(lost).toHaveLength(1);
    expect(lost[0]?.msg).toContain('webhook.processingTtlMs');
  });

  it('a custom store without renew() is accepted and warned about once, at start-up, naming the fix', () => {
    const memory = new MemoryIdempotencyStore();
    const legacy: IdempotencyStore = {
      claim: (key, ttlMs) => memory.claim(key, ttlMs),
      release: (key) => memory.release(key),
      complete: (key, ttlMs) => memory.complete(key, ttlMs),
      state: (key) => memory.state(key),
    };
    const log = capture();
    routes(legacy, async () => {}, log.logger);
    const warnings = log.lines.filter((line) => line.msg.includes('renew('));
    expect(warnings).toEqual([expect.objectContaining({ level: 'warn', fields: { processingTtlMs: PROCESSING_TTL_MS } })]);
    expect(warnings[0]?.msg).toContain('Add renew() to the store');
    routes(new MemoryIdempotencyStore(), async () => {}, log.logger);
    expect(log.lines.filter((line) => line.msg.includes('renew('))).toHaveLength(1);
  });
});
