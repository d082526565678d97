import { validate } from '@paymount/core/schemas';
import { DenoKvIdempotencyStore } from './deno-kv-idempotency-store';
import { DenoKvOrderAttemptStore } from './deno-kv-order-attempt-store';
import type { KvKey, KvLike } from './kv';
import { denoKvStoresOptionsSchema, kvSchema } from './options-schema';

export const DEFAULT_KEY_PREFIX: readonly ['paymount'] = ['paymount'];

export interface DenoKvStoresOptions {
  /** The first parts of every key the stores write, so they keep apart from the app's own. Default `['paymount']`. */
  keyPrefix?: KvKey;
  /**
   * The clock of locks, claims and expiry, in milliseconds since the epoch.
   * Default `Date`; a test can drive it. Every isolate sharing the KV must
   * agree on it within much less than the shortest TTL (Deno Deploy's clocks do).
   */
  clock?: { now(): number };
}

export interface DenoKvStores {
  /** The webhook dedupe store: the `store` option. Handlers get the event's atomic commit as `ctx.db` (see inKvCommit). */
  idempotency: DenoKvIdempotencyStore;
  /** The per-order payment guard's store: the `orders.store` option. */
  orders: DenoKvOrderAttemptStore;
}

/**
 * Both stores a paymount app needs, in one Deno KV: `await Deno.openKv()` on
 * Deno Deploy, `await Deno.openKv(path)` locally. Cheap to make: an isolate
 * (or a request) may make them afresh, every instance sees the same state.
 * `kv` stays the app's to close.
 */
export function denoKvStores(kv: KvLike, options: DenoKvStoresOptions = {}): DenoKvStores {
  validate(kvSchema, kv, 'denoKvStores kv');
  const valid = validate(denoKvStoresOptionsSchema, options, 'Deno KV stores options');
  const settings = { keyPrefix: valid.keyPrefix ?? [...DEFAULT_KEY_PREFIX], clock: valid.clock ?? Date };
  return { idempotency: new DenoKvIdempotencyStore(kv, settings), orders: new DenoKvOrderAttemptStore(kv, settings) };
}
