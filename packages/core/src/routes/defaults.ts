/**
 * Every default of the payment routes' own options, in one place; config.ts
 * applies them. The client's, the webhook verifier's and the signed-time
 * field's defaults stay with the code that also runs without the routes, and
 * a reconcile run's with the order guard (orders/reconcile.ts).
 */

/**
 * The browser routes' bodies are `{ orderId }` and `{ orderId, token }`: a
 * wallet token is 1 to 4 KiB (the sandbox's about 0.75 KiB), an order id at
 * most 128 characters, so 16 KiB holds any of them with room to spare.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * The service gives a webhook receiver 10 s to answer, and a genuine body (a
 * delivery, a browser's `{ orderId, token }`) arrives in milliseconds: a body
 * still trickling in after that long is someone holding connections open.
 */
export const DEFAULT_BODY_READ_TIMEOUT_MS = 10_000;

/** How long a handled event is remembered by default: far past every retry and redelivery of the service. */
export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60_000;

/**
 * Under the service's retry schedule (1, 2, 4, 8, 16 s) a delivery to a crashed
 * instance fails fast and its last retry comes about 31 s after the first: a
 * claim held longer would outlive every retry and the event would be lost. 25 s
 * is still well past the service's 10 s wait for an answer.
 */
export const DEFAULT_PROCESSING_TTL_MS = 25_000;

/** Half the service's 10 s wait for a webhook answer: inline handlers slower than this are warned about. */
export const DEFAULT_SLOW_HANDLER_WARNING_MS = 5_000;

/** Past a session's 30 minutes and the settlement of a pending payment, with a wide margin. */
export const DEFAULT_ATTEMPT_TTL_MS = 24 * 60 * 60_000;

/**
 * A payment request may make two calls under its order's lock (expire a
 * session, then pay), each up to the client's whole-call deadline: the lock
 * outlives both, so it never frees while a call of its holder is in flight.
 */
export function defaultLockTtlMs(deadlineMs: number): number {
  return 2 * deadlineMs + 30_000;
}
