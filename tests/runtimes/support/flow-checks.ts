import type { Charge, Refund } from '@paymount/sandbox';
import { expect } from 'vitest';
import type { StepReport } from '../flows/types';

/**
 * The checks every runtime's flows are held to, against the sandbox's own
 * records: the runtimes here (describe-runtime-flows.ts) and the Next.js app
 * under `next start` (packages/next/test/next-start.test.ts). Types only from
 * `flows/`, so a package without `allowJs` can import this file.
 */

/** The partial refund of the flows' wallet payment, in its currency's minor units. */
export const PARTIAL_REFUND_CENTS = 500;

/** A payment's charge and the refunds of it, as the sandbox recorded them. */
export interface PaymentRecords {
  payment: Charge | undefined;
  refunds: Refund[];
}

/** The order's one charge and the refunds the sandbox recorded against it. */
export function paymentRecords(charges: readonly Charge[], refunds: readonly Refund[]): PaymentRecords {
  const payment = charges[0];
  return { payment, refunds: refunds.filter((r) => r.originalTransactionId === payment?.transactionId) };
}

/** The refund was given back once, in part, as asked; the client's answer names that refund and its payment. */
export function expectPartialRefund(answer: Record<string, unknown>, { payment, refunds }: PaymentRecords): void {
  expect(refunds.map((r) => [r.transactionStatus, r.amount.totalAmount, r.amount.priceCurrency])).toEqual([['S', PARTIAL_REFUND_CENTS, 'USD']]);
  expect(answer).toMatchObject({ status: 'succeeded', transactionId: refunds[0]?.transactionId, originalTransactionId: payment?.transactionId });
}

/** The transaction query answered the payment and its refund as the sandbox holds them. */
export function expectQueryAsRecorded(answer: { payment: unknown; refund: unknown }, { payment, refunds }: PaymentRecords, referenceOrderId: string): void {
  expect(answer.payment).toEqual({ status: 'succeeded', transactionId: payment?.transactionId, referenceOrderId });
  expect(answer.refund).toEqual({ status: 'succeeded', transactionId: refunds[0]?.transactionId });
}

/** What the flows' `currencyChecks` reports: each refused currency's outcome, and the table's exponents. */
export interface CurrencyReport {
  refused: Record<string, StepReport>;
  exponents: Record<string, number>;
}

/** XAU, XXX and DEM refused exactly as Node refuses them (before sending: nothing charged), exponents from the same table. */
export function expectCurrenciesAsOnNode(report: Record<string, unknown>, onNode: CurrencyReport, charges: readonly Charge[]): void {
  expect({ refused: report['refused'], exponents: report['exponents'] }).toEqual(onNode);
  expect(onNode.refused['XAU']?.error).toMatchObject({
    name: 'PaymentValidationError',
    issues: [{ path: 'amount.priceCurrency', rule: 'iso_4217' }],
  });
  expect(charges).toEqual([]);
}

/** A payment whose request never reached the service: it failed with `code` (no status, so never `pending`), known not to have been processed, and charged nothing. */
export function expectFailedUnsent(report: Record<string, unknown>, charges: readonly Charge[], code: string): void {
  expect(charges).toEqual([]);
  expect({ status: report['status'], error: pick(report['error'] as StepReport['error']) }).toEqual({ status: undefined, error: { code, outcomeUnknown: false } });
}

function pick(error: StepReport['error']) {
  return error && { code: error.code, outcomeUnknown: error.outcomeUnknown };
}
