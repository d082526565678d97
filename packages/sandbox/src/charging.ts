import type { Environment } from './credentials';
import { newTransactionId, type Address, type Channel, type Charge } from './ledger';
import type { ChargeOutcome } from './outcomes';
import { payableTotal, type Amount } from './rules/fields';
import type { CheckoutSessionRecord } from './sessions';
import type { SandboxState } from './state';
import { isoTime } from './iso-time';

export interface ChargeInput {
  channel: Channel;
  environment: Environment;
  transactionRequestId: string;
  referenceOrderId?: string;
  amount: Amount;
  outcome: ChargeOutcome;
  description?: string;
  authMethod?: string;
  billingAddress?: Address;
  shippingAddress?: Address;
  /** The transaction id the charge takes; a hosted session's was given at its creation. Default: a new one. */
  transactionId?: string;
}

/** The amount with its optional parts spelled out as 0, as the service reports it back. */
export function fullAmount(amount: Amount): Charge['amount'] {
  return {
    orderAmount: amount.orderAmount,
    taxAmount: amount.taxAmount ?? 0,
    surchargeAmount: amount.surchargeAmount ?? 0,
    priceCurrency: amount.priceCurrency,
  };
}

/** Records one transaction in the ledger with its outcome. */
export function recordCharge(state: SandboxState, input: ChargeInput): Charge {
  const { outcome, amount, transactionId = newTransactionId(), ...rest } = input;
  return state.ledger.record({
    ...rest,
    transactionId,
    amount: fullAmount(amount),
    payableTotal: payableTotal(amount),
    transactionStatus: outcome.transactionStatus,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    createdAt: isoTime(state.clock.now()),
  });
}

/** Queues the signed webhook for a charge's result. */
export function notifyCharge(state: SandboxState, notifyUrl: string | undefined, charge: Charge, extra: Record<string, unknown> = {}): void {
  notify(state, notifyUrl, { ...chargeResult(charge), ...extra, paymentMethod: 'WALLET_PAY', transactionType: 'SALE' });
}

/** Queues the `C` webhook of a hosted session closed without a payment (cancelled, or expired unpaid). */
export function notifyClosed(state: SandboxState, session: CheckoutSessionRecord): void {
  const { request } = session;
  notify(state, request.notifyUrl, {
    transactionId: session.transactionId,
    transactionRequestId: request.transactionRequestId,
    referenceOrderId: request.referenceOrderId,
    sessionId: session.sessionId,
    ...(session.closeReason ? { reason: session.closeReason } : {}),
    transactionStatus: 'C',
    amount: fullAmount(request.amount),
    transactionType: 'SALE',
  });
}

/**
 * Queues a signed webhook with `fields` (which name their `transactionType`)
 * when the request named a notifyUrl; none otherwise (docs/service-contract.md#webhooks).
 */
export function notify(state: SandboxState, notifyUrl: string | undefined, fields: Record<string, unknown>): void {
  if (notifyUrl === undefined) return;
  state.deliverer.send(notifyUrl, {
    ...fields,
    appId: state.credentials.appId,
    merchantId: state.credentials.merchantId,
    notifyTime: isoTime(state.clock.now()),
  });
}

/** The result fields an API answer and a webhook share for a charge. */
export function chargeResult(charge: Charge): Record<string, unknown> {
  return {
    transactionId: charge.transactionId,
    transactionRequestId: charge.transactionRequestId,
    ...(charge.referenceOrderId === undefined ? {} : { referenceOrderId: charge.referenceOrderId }),
    transactionStatus: charge.transactionStatus,
    amount: charge.amount,
    ...(charge.reason ? { reason: charge.reason } : {}),
    createdAt: charge.createdAt,
  };
}
