import { notify } from '../charging';
import type { Environment } from '../credentials';
import { SandboxRefusal } from '../envelope';
import { newTransactionId, type Charge, type RefundAmount } from '../ledger';
import { refundOutcomeForTotal } from '../outcomes';
import { refundPartsTotal, type RefundAmountBody, type RefundBody } from '../rules/refund';
import type { SandboxState } from '../state';
import { findTransaction, refundResult, statusOf } from '../transactions';
import { isoTime } from '../iso-time';

/** The original payment, when it can be refunded; otherwise the refusal that says why. */
function refundableSale(state: SandboxState, environment: Environment, body: RefundBody): Charge {
  const found = findTransaction(state, environment, body.ids);
  const field = 'transactionId' in body.ids ? 'originalTransactionId' : 'originalTransactionRequestId';
  if (!found) throw new SandboxRefusal('T01', `${field} names no transaction`);
  if (found.kind === 'refund') throw new SandboxRefusal('T05', `${field} names a refund: only a payment can be refunded`);
  const status = statusOf(found);
  if (status === 'F') throw new SandboxRefusal('T02', 'the original payment failed: there is nothing to refund');
  if (status === 'C') throw new SandboxRefusal('T03', 'the original payment is closed (its checkout session was cancelled or expired unpaid)');
  if (found.kind !== 'sale') throw new SandboxRefusal('T04', 'the original payment is not completed: its checkout session is still open');
  return found.charge;
}

/** The amount to refund: the one asked for, or the whole remaining balance; refused when it does not fit. */
function amountToRefund(requested: RefundAmountBody | undefined, original: Charge, remaining: number): RefundAmount {
  const currency = original.amount.priceCurrency;
  if (requested && requested.priceCurrency !== currency) {
    throw new SandboxRefusal('T07', `amount.priceCurrency must be the original payment's currency (${currency})`);
  }
  const parts = {
    orderAmount: requested ? (requested.orderAmount ?? 0) : remaining,
    taxAmount: requested?.taxAmount ?? 0,
    surchargeAmount: requested?.surchargeAmount ?? 0,
    tipAmount: requested?.tipAmount ?? 0,
  };
  const totalAmount = refundPartsTotal(parts);
  if (remaining === 0) throw new SandboxRefusal('T06', 'the payment is already fully refunded: nothing remains to refund');
  if (totalAmount > remaining) {
    throw new SandboxRefusal('T06', `a refund of ${totalAmount} is more than the ${remaining} (${currency}) that remains refundable`);
  }
  return { priceCurrency: currency, totalAmount, ...parts };
}

/**
 * POST /v1/checkout/refund: refunds part or all of a succeeded payment, as its
 * own transaction. The refunds of a payment never add up to more than its
 * payable total; a refused refund records nothing. A repeated
 * transactionRequestId is answered with the first result.
 */
export function refund(state: SandboxState, environment: Environment, body: RefundBody): Record<string, unknown> {
  const first = state.ledger.recall(environment, body.transactionRequestId, 'refund');
  if (first) return first;
  const original = refundableSale(state, environment, body);
  const remaining = original.payableTotal - state.ledger.refundedTotal(original.transactionId);
  const amount = amountToRefund(body.amount, original, remaining);
  const outcome = refundOutcomeForTotal(amount.totalAmount);
  const recorded = state.ledger.recordRefund({
    transactionId: newTransactionId(),
    transactionRequestId: body.transactionRequestId,
    originalTransactionId: original.transactionId,
    ...(original.referenceOrderId === undefined ? {} : { referenceOrderId: original.referenceOrderId }),
    environment,
    amount,
    transactionStatus: outcome.transactionStatus,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    ...(body.description === undefined ? {} : { description: body.description }),
    ...(body.attach === undefined ? {} : { attach: body.attach }),
    createdAt: isoTime(state.clock.now()),
  });
  const data = refundResult(recorded);
  state.ledger.remember(environment, body.transactionRequestId, 'refund', data);
  notify(state, body.notifyUrl, {
    ...data,
    ...(recorded.referenceOrderId === undefined ? {} : { referenceOrderId: recorded.referenceOrderId }),
  });
  return data;
}
