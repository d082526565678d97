// What `paymentRoutes.cancelCheckout()` answers, apart from orders/cancel-checkout.ts, whose declarations carry its schema.

/** What `paymentRoutes.cancelCheckout(referenceOrderId)` did. */
export type CancelCheckoutResult =
  /** The order's open hosted session was expired now: its page says it expired, and a new checkout may start. */
  | { outcome: 'cancelled'; sessionId: string }
  /** The order is paid (its session was paid, before or while it was being cancelled): refund it instead. */
  | { outcome: 'already-paid'; transactionId?: string }
  /** The order has no open hosted session: no checkout yet, a wallet payment, or a session that already ended. */
  | { outcome: 'no-open-checkout' }
  /**
   * A checkout whose answer was lost may have opened a session that cannot be
   * named to the service (an attempt recorded before attempts kept their
   * amount): it ends unpaid when its 30 minutes are up.
   */
  | { outcome: 'may-be-open'; transactionRequestId: string };
