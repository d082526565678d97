import { dedupeKeysOf } from '../idempotency/dedupe-keys';
import { claimKeys, completeKeys, holderStateOf, releaseKeys } from '../idempotency/store-calls';
import type { IdempotencyKeyState, IdempotencyStore } from '../idempotency/store';
import type { Logger } from '../logger';
import type { PaymentEventHandlers } from '../webhooks/event-handlers';
import { verifyWebhook } from '../webhooks/verify-webhook';
import { errorResponse, jsonResponse } from './errors-to-response';
import type { NeutralRequest, NeutralResponse } from './neutral-http';

export interface WebhookDeps {
  secrets: readonly string[];
  toleranceMs: number;
  maxBodyBytes: number;
  /** How long a handled key is remembered. */
  dedupeTtlMs: number;
  /** How long an in-flight claim blocks others, so a crashed process does not block a key for the whole dedupe TTL. */
  processingTtlMs: number;
  store: IdempotencyStore;
  handlers: PaymentEventHandlers;
  clock: { now(): number };
  logger: Logger;
}

async function rawBodyOf(req: NeutralRequest): Promise<unknown> {
  // A parsed object is handed on as is: verifyWebhook refuses it with the mounting-order message.
  if (req.parsedBody !== undefined) return req.parsedBody;
  return req.readBody ? req.readBody() : undefined;
}

/** Seconds a delivery refused as in progress is asked to wait: handlers should finish well within the service's 10 s. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 2;

/**
 * POST /webhook. Verify, then claim every dedupe key of the delivery. If a key
 * is taken by a completed delivery, this one is a duplicate (200, no handler
 * runs). If it is taken by one still being handled, this one is refused with
 * 409 and its own claims freed: should that handler fail, the event must still
 * arrive, and the service's retry of this delivery brings it. On a handler
 * failure the claims are released and 500 makes the service retry; when the
 * store cannot be reached, 503 does.
 */
export async function webhookRoute(req: NeutralRequest, deps: WebhookDeps): Promise<NeutralResponse> {
  const event = await verifyWebhook({
    rawBody: await rawBodyOf(req),
    headers: req.headers,
    secrets: deps.secrets,
    toleranceMs: deps.toleranceMs,
    maxBodyBytes: deps.maxBodyBytes,
    now: deps.clock.now(),
  });
  const keys = dedupeKeysOf(event);
  const claimTtl = deps.store.complete ? deps.processingTtlMs : deps.dedupeTtlMs;
  // A store failure while claiming throws PaymentStoreUnavailableError: 503, and the service retries.
  const claimed = await claimKeys(deps.store, keys, claimTtl, deps.logger);
  const done = () => completeKeys(deps.store, claimed, deps.dedupeTtlMs, deps.logger);
  const summary = { type: event.type, deliveryId: event.deliveryId, transactionId: event.transactionId };

  if (claimed.length < keys.length) {
    const lostKey = keys[claimed.length] as string;
    let holder: IdempotencyKeyState | undefined;
    try {
      holder = await holderStateOf(deps.store, lostKey);
    } catch (error) {
      await releaseKeys(deps.store, claimed, deps.logger);
      throw error;
    }
    // undefined: the holder let go between our claim and this read (its handler failed), so a retry will be processed.
    if (holder !== 'done') {
      await releaseKeys(deps.store, claimed, deps.logger);
      deps.logger.info({ ...summary, key: lostKey }, 'webhook delivery refused while the same event is being handled; the service will retry');
      return errorResponse(
        409,
        { code: 'WEBHOOK_IN_PROGRESS', message: 'The same event is being handled by another delivery; retry later.' },
        { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
      );
    }
    // This delivery id now stands for an event already seen: remember it as done too.
    await done();
    deps.logger.info(summary, 'duplicate webhook delivery ignored');
    return jsonResponse(200, { received: true, duplicate: true });
  }
  try {
    const ran = await deps.handlers.dispatch(event, { context: req.context });
    await done();
    deps.logger.info({ ...summary, handlers: ran }, 'webhook delivery handled');
    return jsonResponse(200, { received: true });
  } catch (error) {
    await releaseKeys(deps.store, claimed, deps.logger);
    deps.logger.error({ ...summary, err: error }, 'webhook handler failed; the delivery will be retried');
    return errorResponse(500, {
      code: 'WEBHOOK_HANDLER_FAILED',
      message: 'A webhook handler failed; the delivery will be retried.',
    });
  }
}
