// An order's payment attempt as the routes and every OrderAttemptStore keep it. Zod-free, so that the
// published declarations name no zod; test/public-types.test-d.ts holds orderAttemptSchema to OrderAttempt.

/**
 * Where an attempt stands. `open`: a hosted session the shopper may still pay.
 * `pending`: a call went out (or may have) and its outcome is not known yet.
 * `succeeded`, `failed`, `closed` (a session cancelled or expired unpaid) are
 * the service's final `S`, `F`, `C`.
 */
export const ORDER_ATTEMPT_STATES = ['open', 'pending', 'succeeded', 'failed', 'closed'] as const;
export type OrderAttemptState = (typeof ORDER_ATTEMPT_STATES)[number];

/** `hosted`: a checkout session (POST /checkout); `wallet`: a direct wallet payment (POST /wallet/pay). */
export type OrderAttemptKind = 'hosted' | 'wallet';

/**
 * An order's current payment attempt, as the routes keep it per
 * `referenceOrderId`. The `transactionRequestId` is chosen before the call
 * goes out, so a process that dies mid-call leaves an attempt the next
 * request can ask the service about.
 */
export interface OrderAttempt {
  referenceOrderId: string;
  kind: OrderAttemptKind;
  transactionRequestId: string;
  /** Which of the order's derived transactionRequestIds this is (see RequestIdSource); absent on attempts recorded before ids were derived. */
  sequence?: number;
  state: OrderAttemptState;
  /** The payable total (minor units) and currency the attempt was opened for: a session of another amount is never handed out again. */
  amount?: number;
  currency?: string;
  /**
   * Until when (epoch ms) the service may still receive this attempt's
   * request: the call's deadline plus the service's timestamp window. Until
   * then, "the service knows no such transaction" proves nothing: the request
   * may be in flight, so the order's next payment goes out under this same id.
   */
  inFlightUntil?: number;
  /** Hosted attempts, once the session exists. */
  sessionId?: string;
  checkoutUrl?: string;
  /** When the hosted session stops being payable, epoch ms. */
  expiresAt?: number;
  /** The service's transaction, once known. */
  transactionId?: string;
  /**
   * The final state whose event the merchant's handlers have run for (brought
   * by a webhook or by reconciliation). Until it equals `state`, the attempt
   * is unsettled: reconciliation still has to hand its outcome on.
   */
  handledState?: FinalOrderAttemptState;
  /** Last change, epoch ms. */
  updatedAt: number;
}

export type FinalOrderAttemptState = 'succeeded' | 'failed' | 'closed';

/** An outcome (or a still-pending check) to record on an attempt. */
export interface OrderAttemptUpdate {
  state: OrderAttemptState;
  transactionId?: string;
  /** The merchant's handlers ran for this (final) state's event. */
  handled?: boolean;
  updatedAt: number;
}
