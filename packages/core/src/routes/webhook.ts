import { PaymentErrorCode } from '../error-codes';
import { handleEventOnce, type EventDedupeDeps } from '../idempotency/handle-event-once';
import { queueEvent } from '../idempotency/queue-event';
import type { Logger } from '../logger';
import type { PaymentEvent } from '../webhooks/event';
import type { EventProcessing } from '../webhooks/event-processing';
import type { QueuedEventSeal } from '../webhooks/queued-event-seal';
import { verifyDelivery } from '../webhooks/verify-webhook';
import { errorAnswer, jsonResponse } from './errors-to-response';
import type { NeutralRequest } from './neutral-http';
import { answered, type RouteAnswer } from './route-answer';
import { warnWhenSlow } from './slow-handler-warning';

export interface WebhookDeps extends EventDedupeDeps {
  secrets: readonly string[];
  toleranceMs: number;
  maxBodyBytes: number;
  signedTimeField: string;
  requireSignedTime: boolean;
  /** Told about each accepted delivery whose body carries no signed time (see unsignedTimeWarning). */
  onUnsignedTime: () => void;
  /** Told about each event whose handlers just ran, to settle the order's attempt. Never throws. */
  afterHandled: (event: PaymentEvent) => Promise<void>;
  clock: { now(): number };
  /** Told about each delivery that passed verification (telemetry notes its event type). */
  onVerified?: (event: PaymentEvent) => void;
  /** Queued processing: events are handed to it instead of their handlers running in the request. */
  processing: EventProcessing | undefined;
  /** Seals the events handed to `processing`, and checks a job's seal before a worker runs it. */
  seal: QueuedEventSeal;
  /** How long inline handlers may run before a warning names queued processing. */
  slowHandlerWarningMs: number;
}

async function rawBodyOf(req: NeutralRequest): Promise<unknown> {
  // A parsed object is handed on as is: verifyWebhook refuses it with the mounting-order message.
  if (req.parsedBody !== undefined) return req.parsedBody;
  return req.readBody ? req.readBody() : undefined;
}

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

function duplicateAnswer(logger: Logger, summary: Record<string, unknown>): RouteAnswer {
  logger.info(summary, 'duplicate webhook delivery ignored');
  return { response: jsonResponse(200, { received: true, duplicate: true }), outcome: { duplicate: true } };
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
 * store cannot be reached, 503 does. With queued processing the event is
 * queued instead (see queueEvent) and answered 200 whatever its handlers do.
 */
export async function webhookRoute(req: NeutralRequest, deps: WebhookDeps): Promise<RouteAnswer> {
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
  deps.onVerified?.(event);
  const summary = { type: event.type, deliveryId: event.deliveryId, transactionId: event.transactionId };
  if (deps.processing) {
    // A store or queue failure throws PaymentStoreUnavailableError: 503, and the service retries.
    if ((await queueEvent(event, { store: deps.store, processing: deps.processing, seal: deps.seal })) === 'duplicate') return duplicateAnswer(deps.logger, summary);
    deps.logger.info(summary, 'webhook delivery queued');
    return { response: jsonResponse(200, { received: true, queued: true }), outcome: { queued: true } };
  }
  const stopWatching = warnWhenSlow(deps.logger, deps.slowHandlerWarningMs, summary);
  // A store failure while claiming throws PaymentStoreUnavailableError: 503, and the service retries.
  const handling = await handleEventOnce(event, deps, { context: req.context }).finally(stopWatching);
  switch (handling.outcome) {
    case 'duplicate':
      return duplicateAnswer(deps.logger, summary);
    case 'in-progress':
      deps.logger.warn(summary, 'webhook delivery refused while the same event is being handled; the service will retry');
      return errorAnswer(
        409,
        { code: PaymentErrorCode.WEBHOOK_IN_PROGRESS, message: 'The same event is being handled by another delivery; retry later.' },
        { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
      );
    case 'failed':
      deps.logger.error({ ...summary, err: handling.error }, 'webhook handler failed; the delivery will be retried');
      return errorAnswer(500, {
        code: PaymentErrorCode.WEBHOOK_HANDLER_FAILED,
        message: 'A webhook handler failed; the delivery will be retried.',
      });
    case 'handled':
      await deps.afterHandled(event);
      deps.logger.info({ ...summary, handlers: handling.handlers }, 'webhook delivery handled');
      return answered(jsonResponse(200, { received: true }));
  }
}
