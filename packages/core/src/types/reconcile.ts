// What `paymentRoutes.reconcile()` takes and answers, apart from orders/reconcile.ts, whose declarations carry its options schema.

export interface ReconcileOptions {
  /** Only attempts unchanged for this long: the webhook usually settles them first. Default 60 000 (1 minute). */
  olderThanMs?: number;
  /** Most attempts looked at in one run, oldest first. Default 100. */
  limit?: number;
}

/** What one run did. */
export interface ReconcileSummary {
  /** Attempts looked at (each is then counted in one of the three below). */
  checked: number;
  /** Attempts whose final outcome the handlers have now seen (handled now, or by a webhook before). */
  settled: number;
  /** Attempts the service has not finished with, or whose order a payment or webhook is busy with: the next run looks again. */
  stillPending: number;
  /** Attempts the service could not be asked about, or whose handler threw: the next run looks again. */
  errors: number;
}
