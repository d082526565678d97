import { dedupeKeyOf } from '../idempotency/dedupe-key';
import { claimKey, completeKey, holderStateOf, releaseKey } from '../idempotency/store-calls';
import type { IdempotencyStore } from '../idempotency/store';
import type { Logger } from '../logger';
import type { PaymentEventHandlers } from '../webhooks/event-handlers';
import { verifyDelivery } from '../webhooks/verify-webhook';
import { errorResponse, jsonResponse } from './errors-to-response';
import type { NeutralRequest, NeutralResponse } from './neutral-http';

export interface WebhookDeps {
  secrets: readonly string[];
  toleranceMs: number;
  maxBodyBytes: number;
  signedTimeField: string;
  requireSignedTime: boolean;
  /** Told about each accepted delivery whose body carries no signed time (see unsignedTimeWarning). */
  onUnsignedTime: () => void;
  /** How long a handled event is remembered. */
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

/** How long a handled event is remembered by default: far past every retry and redelivery of the service. */
export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60_000;

/** Seconds a delivery refused as in progress is asked to wait: handlers should finish well within the service's 10 s. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 2;

/**
 * Warns once per handlers instance that deliveries come without the signed
 * time: replay protection then rests on the dedupe store alone, which
 * forgets an event after `dedupeTtlMs`.
 */
export function unsignedTimeWarning(logger: Logger, field: string): () => void {
  let warned = false;
  return () => {
    if (warned) return;
    warned = true;
    logger.warn(
      { field },
      `webhook deliveries carry no signed ${field}: a captured delivery replayed after webhook.dedupeTtlMs would run its handlers again. ` +
        'Set webhook.signedTimeField to the body field the service signs its time in, and webhook.requireSignedTime: true to refuse bodies without it.',
    );
  };
}

/**
 * POST /webhook. Verify (signature, then the time signed into the body), then
 * claim the event's one dedupe key, derived from the signed body alone. If it
 * is held by a handled event, this delivery is a duplicate (200, no handler
 * runs) and nothing is written: replays, under whatever delivery id, leave
 * the store as it was. If it is held by a delivery still being handled, this
 * one is refused with 409: should that handler fail, the event must still
 * arrive, and the service's retry of this delivery brings it. On a handler
 * failure the claim is released and 500 makes the service retry; when the
 * store cannot be reached, 503 does.
 */
export async function webhookRoute(req: NeutralRequest, deps: WebhookDeps): Promise<NeutralResponse> {
  const { event, signedTime } = await verifyDelivery({
    rawBody: await rawBodyOf(req),
    headers: req.headers,
    secrets: deps.secrets,
    toleranceMs: deps.toleranceMs,
    maxBodyBytes: deps.maxBodyBytes,
    signedTimeField: deps.signedTimeField,
    requireSignedTime: deps.requireSignedTime,
    now: deps.clock.now(),
  });
  if (signedTime === undefined) deps.onUnsignedTime();
  const key = dedupeKeyOf(event);
  const claimTtl = deps.store.complete ? deps.processingTtlMs : deps.dedupeTtlMs;
  const summary = { type: event.type, deliveryId: event.deliveryId, transactionId: event.transactionId };

  // A store failure while claiming throws PaymentStoreUnavailableError: 503, and the service retries.
  if (!(await claimKey(deps.store, key, claimTtl))) {
    const holder = await holderStateOf(deps.store, key);
    if (holder === 'done') {
      deps.logger.info(summary, 'duplicate webhook delivery ignored');
      return jsonResponse(200, { received: true, duplicate: true });
    }
    // undefined: the holder let go between our claim and this read (its handler failed), so a retry will be processed.
    deps.logger.info({ ...summary, key }, 'webhook delivery refused while the same event is being handled; the service will retry');
    return errorResponse(
      409,
      { code: 'WEBHOOK_IN_PROGRESS', message: 'The same event is being handled by another delivery; retry later.' },
      { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
    );
  }
  try {
    const ran = await deps.handlers.dispatch(event, { context: req.context });
    await completeKey(deps.store, key, deps.dedupeTtlMs, deps.logger);
    deps.logger.info({ ...summary, handlers: ran }, 'webhook delivery handled');
    return jsonResponse(200, { received: true });
  } catch (error) {
    await releaseKey(deps.store, key, deps.logger);
    deps.logger.error({ ...summary, err: error }, 'webhook handler failed; the delivery will be retried');
    return errorResponse(500, {
      code: 'WEBHOOK_HANDLER_FAILED',
      message: 'A webhook handler failed; the delivery will be retried.',
    });
  }
}
