import type { PaymentEvent } from '@paymount/core';
import type { Charge } from '@paymount/sandbox';
import { tally } from './attempts';

/** The sandbox's ledger held against what the merchant's handlers were told. */
export interface ChargeAudit {
  /** Successful charges in the ledger. */
  charges: number;
  /** referenceOrderIds with more than one successful charge. */
  chargedTwice: string[];
  /** Successful charges no `payment.succeeded` handler run named (by transactionId): money taken the merchant does not know of. */
  unreported: string[];
  /** Successful charges a `payment.succeeded` handler run named more than once. */
  reportedTwice: string[];
}

/** Audits the charges of `referenceOrderIds` (default every charge). */
export function auditCharges(charges: readonly Charge[], handlerRuns: readonly PaymentEvent[], referenceOrderIds?: ReadonlySet<string>): ChargeAudit {
  const succeeded = charges.filter(
    (charge) => charge.transactionStatus === 'S' && (referenceOrderIds === undefined || referenceOrderIds.has(charge.referenceOrderId ?? '')),
  );
  const reports = tally(handlerRuns.filter((event) => event.type === 'payment.succeeded').map((event) => event.transactionId ?? ''));
  return {
    charges: succeeded.length,
    chargedTwice: Object.entries(tally(succeeded.map((charge) => charge.referenceOrderId ?? '?')))
      .filter(([, count]) => count > 1)
      .map(([referenceOrderId]) => referenceOrderId),
    unreported: succeeded.filter((charge) => !reports[charge.transactionId]).map((charge) => charge.transactionId),
    reportedTwice: succeeded.filter((charge) => (reports[charge.transactionId] ?? 0) > 1).map((charge) => charge.transactionId),
  };
}
