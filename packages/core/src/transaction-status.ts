export type PaymentStatus = 'succeeded' | 'failed' | 'pending';

/**
 * Only `S` and `F` are final in the spec. Any other value (`I`, `P`, `C`, or
 * one not seen yet) is treated as pending: the webhook settles it, and calling
 * an unknown state "failed" could make a merchant cancel a paid order.
 */
export function paymentStatusOf(transactionStatus: string | undefined): PaymentStatus {
  if (transactionStatus === 'S') return 'succeeded';
  if (transactionStatus === 'F') return 'failed';
  return 'pending';
}
