import type { PaymentEventContext } from '@paymount/core';
import { inEventCommit } from '@paymount/core/stores';
import type { KvAtomic } from './kv';

/**
 * What a handler adds to the atomic commit that marks its event handled: the
 * checks and mutations of a Deno KV atomic operation, without `commit()`,
 * which belongs to the store (it adds the mark, then commits once).
 */
export type KvEventWrites = { [M in Exclude<keyof KvAtomic, 'commit'>]: (...args: Parameters<KvAtomic[M]>) => KvEventWrites };

/** A handler's context when its event is handled by the Deno KV store: `db` is what it adds to the event's commit. */
export interface KvEventContext<TContext = unknown> extends PaymentEventContext<TContext> {
  db: KvEventWrites;
}

/** Handlers' writes, kept until the store commits them with its mark. */
export interface RecordedWrites {
  readonly writes: KvEventWrites;
  /** `atomic` with every recorded check and mutation added, in the order the handlers made them. */
  applyTo(atomic: KvAtomic): KvAtomic;
}

/**
 * Records instead of adding to one operation: a commit refused because a
 * renewal of the claim landed after its read is made again on a fresh
 * operation with the same writes (a refused operation cannot be rechecked).
 */
export function recordWrites(): RecordedWrites {
  const recorded: ((atomic: KvAtomic) => void)[] = [];
  const writes: KvEventWrites = {
    check: (...checks) => record((atomic) => atomic.check(...checks)),
    set: (key, value, options) => record((atomic) => atomic.set(key, value, options)),
    delete: (key) => record((atomic) => atomic.delete(key)),
    sum: (key, n) => record((atomic) => atomic.sum(key, n)),
    min: (key, n) => record((atomic) => atomic.min(key, n)),
    max: (key, n) => record((atomic) => atomic.max(key, n)),
    enqueue: (value, options) => record((atomic) => atomic.enqueue(value, options)),
  };
  function record(write: (atomic: KvAtomic) => void): KvEventWrites {
    recorded.push(write);
    return writes;
  }
  return {
    writes,
    applyTo(atomic) {
      for (const write of recorded) write(atomic);
      return atomic;
    },
  };
}

/**
 * Types a handler that writes through `ctx.db`, the Deno KV atomic commit in
 * which paymount marks its event handled (the store's runHandled): its writes
 * and that mark commit together, or not at all when it throws. Run with
 * another store, it throws rather than write outside that commit.
 *
 * ```ts
 * on: { 'payment.succeeded': inKvCommit((event, { db }) => { db.set(['paid', event.referenceOrderId!], true) }) }
 * ```
 */
export const inKvCommit = inEventCommit({
  is: (db: unknown): db is KvEventWrites =>
    typeof db === 'object' && db !== null && ['check', 'set', 'delete', 'enqueue'].every((m) => typeof (db as Record<string, unknown>)[m] === 'function'),
  commit: 'Deno KV atomic commit',
  store: 'denoKvStores(kv).idempotency',
});
