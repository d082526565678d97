// The dedupe key, the claim and its heartbeat, handling once, sealing and queueing an event.
import { platformCrypto } from '../platform/current-verifier';
import { base64UrlOf, hexOf } from '../shared/bytes';
import { PaymentStoreUnavailableError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { PaymentEvent } from '../webhooks/event';
import type { EventHandling, EventProcessing, PaymentEventContext, PaymentEventRegistry, QueuedEvent } from '../webhooks/event-handlers';
import { normalizeCode } from '../webhooks/normalize-event';
import { hexMatches } from '../webhooks/signature';
import { claimKey, completeKey, holderStateOf, type IdempotencyStore, releaseKey } from './store';

/**
 * The one key an event is deduplicated under, taken from the signed body
 * alone: the delivery id and the timestamp are not signed, so anyone holding
 * a captured delivery can send it under any id. Keying by them let a replay
 * claim a fresh key each time (filling the store, evicting real keys) or
 * mark another event's delivery id as handled, so that event was lost.
 *
 * The identity is the transaction and its state: `transactionType`,
 * `transactionId`, `transactionRequestId` and `transactionStatus`.
 * - Both ids count: a refund has its own `transactionRequestId` (and its own
 *   `transactionId`), so a sale and its refunds, or two partial refunds, never
 *   share a key, even when the body omits `transactionType` or a service
 *   reports a refund under the original's `transactionId`.
 * - The status counts: `payment.failed` then `payment.succeeded` for the same
 *   transaction are two facts, each handled once, in arrival order.
 * - Type and status go through normalizeCode, as for the event's name, so
 *   `s` and `S` are one status everywhere; ids are compared exactly.
 * A body with neither id is identified by its whole content.
 *
 * Hashed, so a key has a fixed size whatever the body holds; the same key on
 * every platform, so stores shared between runtimes agree.
 */
export async function dedupeKeyOf(event: PaymentEvent): Promise<string> {
  const { transactionId, transactionRequestId, transactionType, transactionStatus } = event;
  const identity =
    transactionId === undefined && transactionRequestId === undefined
      ? ['body', event.payload]
      : [
          'transaction',
          transactionType === undefined ? null : normalizeCode(transactionType),
          transactionId ?? null,
          transactionRequestId ?? null,
          transactionStatus === undefined ? null : normalizeCode(transactionStatus),
        ];
  return `event:${base64UrlOf(await platformCrypto.sha256(JSON.stringify(identity)))}`;
}

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
export function warnIfClaimsCannotBeRenewed(deps: EventDedupeDeps): void {
  const { store, logger } = deps;
  if (typeof store.renew === 'function') return;
  const processingTtlMs = claimTtlOf(deps);
  logger.warn(
    { processingTtlMs },
    `the idempotency store (the \`store\` option) has no renew(key, ttlMs): a webhook handler running longer than webhook.processingTtlMs (${processingTtlMs} ms) can be run a second time, concurrently, by a retry of its event. ` +
      "Add renew() to the store: extend the key's TTL only while this store's claim still holds it, atomically (see IdempotencyStore.renew).",
  );
}

/**
 * The dedupe's settings, each with a default: what handling an event once reads, and (each optional)
 * what a merchant writes in the routes' `webhook` option (WebhookRouteSettings).
 */
export interface DedupeSettings {
  /**
   * How long a handled event is remembered as done. Default 24 hours; at least twice `toleranceMs`,
   * so an event is remembered for as long as a replay of it can pass the signed-time window.
   */
  dedupeTtlMs: number;
  /**
   * How long a delivery being handled blocks others of the same event without renewal. Default 25 s:
   * shorter than the service's retries last (about 31 s), so a crashed instance's claim frees in time
   * for a retry. A live handler's claim is renewed every third of this while it runs (with a store
   * that has renew(), as both bundled stores do), so a slow handler never runs twice at once; a
   * process paused longer than this can lose its claim.
   */
  processingTtlMs: number;
}

/** What handling an event once works with: its settings (the resolved options, handed on whole) and what it is given beside them. */
export interface EventDedupeDeps extends DedupeSettings {
  store: IdempotencyStore;
  handlers: Pick<PaymentEventRegistry, 'dispatch'>;
  /**
   * What the handlers are given of the event (the routes add its order
   * attempt). Run before a `runHandled` store opens its transaction: it reads
   * other stores, which on a one-connection database (PGlite, a single
   * `pg.Client`) would wait for that transaction, and it for them.
   */
  prepare?: (event: PaymentEvent) => Promise<PaymentEvent>;
  logger: Logger;
}

/** How long a claim lasts unrenewed: never past the memory of the event it guards. */
const claimTtlOf = (deps: EventDedupeDeps): number => Math.min(deps.processingTtlMs, deps.dedupeTtlMs);

/**
 * Runs the merchant's handlers for `event` at most once to success, however
 * often and by whatever way it arrives (a webhook delivery, its retries, a
 * re-signed redelivery, or reconciliation): every arrival claims the event's
 * one dedupe key (dedupeKeyOf). A store failure while claiming throws
 * PaymentStoreUnavailableError, and no handler runs.
 */
export async function handleEventOnce(event: PaymentEvent, deps: EventDedupeDeps, ctx: PaymentEventContext): Promise<EventHandling> {
  const key = await dedupeKeyOf(event);
  if (!(await claimKey(deps.store, key, claimTtlOf(deps)))) {
    // undefined: the holder let go between our claim and this read (its handler failed), so a later arrival is handled.
    return (await holderStateOf(deps.store, key)) === 'done' ? { outcome: 'duplicate' } : { outcome: 'in-progress' };
  }
  const stopRenewing = keepClaimAlive(deps.store, key, claimTtlOf(deps), deps.logger);
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

/*
 * A job read back from the queue carries neither the signed body nor its
 * signature, and whoever can write to the queue's Redis can write a job: the
 * routes seal what they queue (the dedupe key and the event, webhook or
 * reconciliation alike) and a worker runs only a job whose seal it can check
 * again. The seal's key is derived from a webhook secret, which the queue's
 * Redis never holds; derived rather than the secret itself, so that a seal
 * read from Redis signs nothing the webhook route would accept.
 */
const SEAL_KEY_LABEL = 'paymount queued-event seal v1';

/** What a seal covers: the job's key and event, as JSON (BullMQ stores a job's data as JSON, so a real job reads back the same text). */
function sealedContent(key: string, event: PaymentEvent): string {
  return JSON.stringify([key, event]);
}

export interface QueuedEventSeal {
  /** The seal of a job about to be queued, under the first (current) webhook secret. */
  seal(key: string, event: PaymentEvent): Promise<string>;
  /** Whether a job read from the queue was sealed under any of the webhook secrets (rotation: old and new both verify). */
  verify(queued: QueuedEvent): Promise<boolean>;
}

/** Seals queued events with keys derived from `secrets`, derived once. */
export function queuedEventSeal(secrets: readonly string[]): QueuedEventSeal {
  let keys: Promise<string[]> | undefined;
  const sealKeys = () => (keys ??= Promise.all(secrets.map(async (secret) => hexOf(await platformCrypto.hmacSha256(secret, SEAL_KEY_LABEL)))));
  const macOf = async (key: string, content: string) => hexOf(await platformCrypto.hmacSha256(key, content));
  return {
    async seal(key, event) {
      const [current] = await sealKeys();
      return macOf(current!, sealedContent(key, event));
    },
    async verify({ key, event, mac }) {
      if (typeof mac !== 'string' || typeof key !== 'string' || typeof event !== 'object' || event === null) return false;
      const content = sealedContent(key, event);
      const expected = await Promise.all((await sealKeys()).map((sealKey) => macOf(sealKey, content)));
      // Every secret's seal is compared, so timing does not tell which matched.
      return expected.reduce((matched, digest) => hexMatches(mac, digest) || matched, false);
    },
  };
}

/**
 * Hands `event` to queued processing unless its handlers already ran to
 * success. Only read here, never written: the worker claims the key when it
 * runs the job, so a replay or a duplicate delivery leaves the store as it
 * was, and the queue's one job per key absorbs copies of an event that is
 * waiting or running. The job is sealed (see queuedEventSeal), so that a
 * worker can tell it from one written to the queue by anyone else. A store or queue failure is a
 * PaymentStoreUnavailableError (503: the service retries).
 */
export async function queueEvent(
  event: PaymentEvent,
  deps: { store: IdempotencyStore; processing: EventProcessing; seal: QueuedEventSeal },
): Promise<'queued' | 'duplicate'> {
  const key = await dedupeKeyOf(event);
  if ((await holderStateOf(deps.store, key)) === 'done') return 'duplicate';
  try {
    await deps.processing.enqueue({ key, event, mac: await deps.seal.seal(key, event) });
  } catch (error) {
    throw PaymentStoreUnavailableError.from(error, 'event queue');
  }
  return 'queued';
}
