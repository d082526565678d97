import type { Logger } from '../logger';
import type { IdempotencyStore } from './store';

/** Renewals per claim TTL: two can fail or come late before a live handler's claim lapses. */
const RENEWALS_PER_TTL = 3;

/**
 * Renews the claim on `key` every third of `ttlMs` until the returned stop()
 * is called, so that a handler slower than the claim TTL keeps its event to
 * itself: only the claim of a process that died (or stopped answering for a
 * whole TTL) expires and is taken over by a retry.
 *
 * A renewal the store refuses (the claim expired or was taken) ends the
 * heartbeat; one that fails (the store is unreachable) is retried at the next
 * beat. Both are logged: either may let another delivery run the event's
 * handlers at the same time. stop() leaves no timer behind.
 */
export function keepClaimAlive(store: IdempotencyStore, key: string, ttlMs: number, logger: Logger): () => void {
  if (typeof store.renew !== 'function') return () => {};
  const renew = store.renew.bind(store);
  const intervalMs = Math.max(1, Math.floor(ttlMs / RENEWALS_PER_TTL));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = () => {
    timer = setTimeout(beat, intervalMs);
    // The handler's own work keeps the process alive; a heartbeat alone must not.
    timer.unref?.();
  };
  const beat = async () => {
    let held: boolean;
    try {
      held = await renew(key, ttlMs);
    } catch (error) {
      if (stopped) return;
      logger.error(
        { key, err: error },
        `idempotency store: the claim of an event whose handler is still running could not be renewed; unless a later renewal succeeds within ${ttlMs} ms, a retry of the event may run its handlers a second time. Check that the store is reachable.`,
      );
      schedule();
      return;
    }
    if (stopped) return;
    if (held) return schedule();
    logger.error(
      { key },
      'idempotency store: the claim of an event whose handler is still running was lost (it expired or another delivery took it); that delivery may be running the same handlers now. ' +
        'Raise webhook.processingTtlMs above the longest pause of this process, or move slow work out of the handler.',
    );
  };

  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Warns once, when the routes are created, that `store` has no renew(): its
 * claims are not kept alive, so a handler slower than the claim TTL can run
 * twice at once.
 */
export function warnIfClaimsCannotBeRenewed(store: IdempotencyStore, processingTtlMs: number, logger: Logger): void {
  if (typeof store.renew === 'function') return;
  logger.warn(
    { processingTtlMs },
    `the idempotency store (the \`store\` option) has no renew(key, ttlMs): a webhook handler running longer than webhook.processingTtlMs (${processingTtlMs} ms) can be run a second time, concurrently, by a retry of its event. ` +
      "Add renew() to the store: extend the key's TTL only while this store's claim still holds it, atomically (see IdempotencyStore.renew).",
  );
}
