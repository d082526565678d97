import { sessionIdOfResult } from './api/create-session';
import { fullAmount } from './charging';
import type { Environment } from './credentials';
import type { Charge, LedgerEntry, Refund, TransactionIds } from './ledger';
import type { CheckoutSessionRecord, SessionState } from './sessions';
import type { SandboxState } from './state';
import { isoTime } from './iso-time';

/**
 * A transaction as the service knows it: a charge or refund of the ledger, or
 * a hosted session not charged (yet), whose sale transaction exists from its
 * creation on.
 */
export type FoundTransaction = LedgerEntry | { kind: 'session'; session: CheckoutSessionRecord };

/** The vendor's RelatedTransactionStatus values the sandbox reports on a refunded payment. */
export const RELATED_STATUS = { refunded: 'REFUNDED', partRefunded: 'PART_REFUNDED' } as const;

const SESSION_STATUS: Readonly<Record<SessionState, string>> = { open: 'I', paid: 'S', failed: 'F', cancelled: 'C', expired: 'C' };

/** The session `ids` name; by transactionRequestId through the first result the ledger keeps of that create-session request. */
function findSession(state: SandboxState, environment: Environment, ids: TransactionIds): CheckoutSessionRecord | undefined {
  const now = state.clock.now();
  if ('transactionId' in ids) return state.sessions.findByTransactionId(environment, ids.transactionId, now);
  const first = state.ledger.firstResult(environment, ids.transactionRequestId);
  const sessionId = first?.operation === 'create-session' ? sessionIdOfResult(first.data) : undefined;
  return sessionId === undefined ? undefined : state.sessions.get(sessionId, now);
}

export function findTransaction(state: SandboxState, environment: Environment, ids: TransactionIds): FoundTransaction | undefined {
  const entry = state.ledger.find(environment, ids);
  if (entry) return entry;
  const session = findSession(state, environment, ids);
  return session ? { kind: 'session', session } : undefined;
}

/** The transaction's status code: I, S, F or C. */
export function statusOf(found: FoundTransaction): string {
  if (found.kind === 'sale') return found.charge.transactionStatus;
  if (found.kind === 'refund') return found.refund.transactionStatus;
  return SESSION_STATUS[found.session.state];
}

/**
 * The outcome fields the service's answers share: status, creation time,
 * completion time once final, and the result code and message of a failure
 * or closure.
 */
export function outcomeFields(
  transactionStatus: string,
  createdAt: string,
  completedAt: string | undefined,
  reason: { code: string; message: string } | undefined,
): Record<string, unknown> {
  return {
    transactionStatus,
    createTime: createdAt,
    ...(completedAt === undefined ? {} : { completeTime: completedAt }),
    ...(reason ? { transactionResultCode: reason.code, transactionResultMsg: reason.message } : {}),
  };
}

/** A refund as its answer and its webhook report it. */
export function refundResult(refund: Refund): Record<string, unknown> {
  return {
    transactionId: refund.transactionId,
    transactionRequestId: refund.transactionRequestId,
    originalTransactionId: refund.originalTransactionId,
    transactionType: 'REFUND',
    amount: refund.amount,
    // The sandbox settles a refund at once: it completes when it is created.
    ...outcomeFields(refund.transactionStatus, refund.createdAt, refund.createdAt, refund.reason),
    ...(refund.description === undefined ? {} : { description: refund.description }),
  };
}

function relatedStatus(state: SandboxState, charge: Charge): string | undefined {
  const refunded = state.ledger.refundedTotal(charge.transactionId);
  if (refunded === 0) return undefined;
  return refunded >= charge.payableTotal ? RELATED_STATUS.refunded : RELATED_STATUS.partRefunded;
}

function saleView(state: SandboxState, charge: Charge): Record<string, unknown> {
  const related = relatedStatus(state, charge);
  return {
    transactionId: charge.transactionId,
    transactionRequestId: charge.transactionRequestId,
    ...(charge.referenceOrderId === undefined ? {} : { referenceOrderId: charge.referenceOrderId }),
    transactionType: 'SALE',
    amount: charge.amount,
    ...outcomeFields(charge.transactionStatus, charge.createdAt, charge.createdAt, charge.reason),
    ...(charge.description === undefined ? {} : { description: charge.description }),
    ...(related === undefined ? {} : { relatedTransactionStatus: related }),
  };
}

function sessionView(session: CheckoutSessionRecord): Record<string, unknown> {
  const { request } = session;
  const completedAt = session.closedAt === undefined ? undefined : isoTime(session.closedAt);
  return {
    transactionId: session.transactionId,
    transactionRequestId: request.transactionRequestId,
    referenceOrderId: request.referenceOrderId,
    transactionType: 'SALE',
    amount: fullAmount(request.amount),
    ...outcomeFields(SESSION_STATUS[session.state], isoTime(session.createdAt), completedAt, session.closeReason),
    description: request.description,
  };
}

/** The `data` of a transaction query's answer. */
export function describeTransaction(state: SandboxState, found: FoundTransaction): Record<string, unknown> {
  if (found.kind === 'sale') return saleView(state, found.charge);
  if (found.kind === 'session') return sessionView(found.session);
  const { refund } = found;
  return {
    ...refundResult(refund),
    ...(refund.referenceOrderId === undefined ? {} : { referenceOrderId: refund.referenceOrderId }),
    ...(refund.attach === undefined ? {} : { attach: refund.attach }),
  };
}
