import type { PaymentErrorCode } from '../error-codes';
import type { NeutralResponse } from './neutral-http';

/**
 * What a route did, told beside its response so that telemetry never reads
 * the serialised body back.
 */
export interface RouteOutcome {
  /** The error code answered, for a 4xx or 5xx. */
  errorCode?: PaymentErrorCode;
  /** The webhook route answered a delivery of an event already handled: no handler ran. */
  duplicate?: true;
  /** The webhook route handed the delivery's event to queued processing: its handlers run on a worker. */
  queued?: true;
}

export interface RouteAnswer {
  response: NeutralResponse;
  outcome: RouteOutcome;
}

/** A route's response with nothing more to tell: a success. */
export function answered(response: NeutralResponse): RouteAnswer {
  return { response, outcome: {} };
}
