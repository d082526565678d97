export type PaymentStatus = 'succeeded' | 'failed' | 'closed' | 'pending';

/**
 * `S`, `F` and `C` are final: `C` is a transaction closed without money
 * moving (a hosted session cancelled or expired unpaid). Any other value (`I`,
 * `P`, or one not seen yet) is treated as pending: the webhook or a query
 * settles it, and calling an unknown state "failed" could make a merchant
 * cancel a paid order.
 */
export function paymentStatusOf(transactionStatus: string | undefined): PaymentStatus {
  if (transactionStatus === 'S') return 'succeeded';
  if (transactionStatus === 'F') return 'failed';
  if (transactionStatus === 'C') return 'closed';
  return 'pending';
}
