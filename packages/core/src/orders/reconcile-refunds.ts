import * as z from 'zod/mini';
import { PaymentNotFoundError } from '../errors';
import { longTransactionRequestIdSchema } from '../schemas/fields';
import type { ReconcileSummary } from '../types/reconcile';
import { validate } from '../validation';
import { normalizeEvent } from '../webhooks/normalize-event';
import type { OrderGuardDeps } from './guard-deps';
import { handOnFoundEvent } from './reconcile';

const reconcileRefundsSchema = z.strictObject({
  transactionRequestIds: z.array(longTransactionRequestIdSchema).check(z.maxLength(10_000, 'must hold at most 10000 ids')),
});

/**
 * One refund, asked about by the transactionRequestId it was issued under, and
 * its final outcome handed to the handlers as its webhook would have been:
 * the same event, so the same dedupe key, and its handlers run once whichever
 * brings it.
 */
async function reconcileRefund(deps: OrderGuardDeps, transactionRequestId: string): Promise<'settled' | 'stillPending'> {
  const details = await deps.client.getTransaction({ transactionRequestId }).catch((error: unknown) => {
    if (!(error instanceof PaymentNotFoundError)) throw error;
    throw new Error(`the service knows no transaction ${transactionRequestId}: give the refund's own transactionRequestId, as client.refund() was called with`, { cause: error });
  });
  if (details.status === 'pending') return 'stillPending';
  const event = normalizeEvent(details.raw.data, { deliveryId: `reconciliation:${transactionRequestId}`, timestamp: deps.clock.now() });
  if (event.type !== 'refund.succeeded' && event.type !== 'refund.failed') {
    throw new Error(`transaction ${transactionRequestId} is a ${event.type} event, not a refund: payments are reconciled by reconcile()`);
  }
  return (await handOnFoundEvent(deps.events, event)) === 'stillPending' ? 'stillPending' : 'settled';
}

/**
 * The refunds named, each asked about and its final outcome handed to the
 * handlers through the webhook dedupe (queued, with queued processing). The
 * routes keep no record of refunds (the app issues them with
 * `client.refund()`), so the app names them: the recovery, with `reconcile()`
 * for payments, of refund events its queue or its handlers lost.
 */
export async function reconcileRefunds(deps: OrderGuardDeps, transactionRequestIds: readonly string[]): Promise<ReconcileSummary> {
  validate(reconcileRefundsSchema, { transactionRequestIds }, 'reconcileRefunds request');
  const summary: ReconcileSummary = { checked: 0, settled: 0, stillPending: 0, errors: 0 };
  for (const transactionRequestId of new Set(transactionRequestIds)) {
    summary.checked += 1;
    try {
      summary[await reconcileRefund(deps, transactionRequestId)] += 1;
    } catch (error) {
      summary.errors += 1;
      deps.logger.error({ transactionRequestId, err: error }, 'reconciliation could not hand on a refund’s outcome; the next run tries again');
    }
  }
  deps.logger.info(summary, 'refund reconciliation run');
  return summary;
}
