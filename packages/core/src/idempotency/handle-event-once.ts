import type { Logger } from '../logger';
import type { PaymentEventContext, PaymentEventRegistry } from '../webhooks/event-handlers';
import type { PaymentEvent } from '../webhooks/event';
import { dedupeKeyOf } from './dedupe-key';
import type { IdempotencyStore } from './store';
import { claimKey, completeKey, holderStateOf, releaseKey } from './checked-store';
import { keepClaimAlive } from './claim-heartbeat';

export interface EventDedupeDeps {
  store: IdempotencyStore;
  handlers: Pick<PaymentEventRegistry, 'dispatch'>;
  /**
   * What the handlers are given of the event (the routes add its order
   * attempt). Run before a `runHandled` store opens its transaction: it reads
   * other stores, which on a one-connection database (PGlite, a single
   * `pg.Client`) would wait for that transaction, and it for them.
   */
  prepare?: (event: PaymentEvent) => Promise<PaymentEvent>;
  /** How long a handled event is remembered. */
  dedupeTtlMs: number;
  /**
   * How long an in-flight claim blocks others without being renewed: a live
   * handler's claim is renewed while it runs, so only a crashed process's
   * claim lapses, and then within this time rather than the dedupe TTL.
   */
  processingTtlMs: number;
  logger: Logger;
}

/** How one arrival of an event went. */
export type EventHandling =
  | { outcome: 'handled'; handlers: number }
  /** Its handlers already ran to success: nothing ran, nothing was written. */
  | { outcome: 'duplicate' }
  /** Another arrival of it is being handled right now: nothing ran; should that one fail, a later arrival runs it. */
  | { outcome: 'in-progress' }
  /** A handler threw: the claim is released, so a later arrival runs it. */
  | { outcome: 'failed'; error: unknown };

/**
 * Runs the merchant's handlers for `event` at most once to success, however
 * often and by whatever way it arrives (a webhook delivery, its retries, a
 * re-signed redelivery, or reconciliation): every arrival claims the event's
 * one dedupe key (dedupeKeyOf). A store failure while claiming throws
 * PaymentStoreUnavailableError, and no handler runs.
 */
export async function handleEventOnce(event: PaymentEvent, deps: EventDedupeDeps, ctx: PaymentEventContext): Promise<EventHandling> {
  const key = await dedupeKeyOf(event);
  if (!(await claimKey(deps.store, key, deps.processingTtlMs))) {
    // undefined: the holder let go between our claim and this read (its handler failed), so a later arrival is handled.
    return (await holderStateOf(deps.store, key)) === 'done' ? { outcome: 'duplicate' } : { outcome: 'in-progress' };
  }
  const stopRenewing = keepClaimAlive(deps.store, key, deps.processingTtlMs, deps.logger);
  // Renewal stops as the handlers end, before the mark: a renewal answered after it would read as a lost claim.
  const { store } = deps;
  let handlers: number;
  try {
    const prepared = deps.prepare ? await deps.prepare(event) : event;
    const dispatch = (db?: unknown) => deps.handlers.dispatch(prepared, db === undefined ? ctx : { ...ctx, db }).finally(stopRenewing);
    // With runHandled the handlers run in the store's transaction, which marks the key done as it commits.
    handlers = typeof store.runHandled === 'function' ? await store.runHandled(key, deps.dedupeTtlMs, dispatch) : await dispatch();
  } catch (error) {
    stopRenewing();
    await releaseKey(store, key, deps.logger);
    return { outcome: 'failed', error };
  }
  if (typeof store.runHandled !== 'function') await completeKey(store, key, deps.dedupeTtlMs, deps.logger);
  return { outcome: 'handled', handlers };
}
