import type { OrderAttempt } from '../types/order-attempt';
import type { OrderGuardDeps } from './guard-deps';

/**
 * The service takes a request whose X-Timestamp is within ±10 minutes of its
 * own clock (docs/service-contract.md#authentication). The last attempt of a
 * call is stamped before its deadline; with the two clocks up to 10 minutes
 * apart, the service may receive it until 20 minutes after that.
 */
export const SERVICE_TIMESTAMP_REACH_MS = 20 * 60_000;

/** How long after a call starts its request may still reach the service: its deadline, then the timestamp's reach. */
export function lateArrivalMs(deadlineMs: number): number {
  return deadlineMs + SERVICE_TIMESTAMP_REACH_MS;
}

/** Until when the service may still receive the attempt's request; an attempt recorded without it counts from its last change. */
export function inFlightUntil(deps: Pick<OrderGuardDeps, 'lateArrivalMs'>, attempt: OrderAttempt): number {
  return attempt.inFlightUntil ?? attempt.updatedAt + deps.lateArrivalMs;
}
