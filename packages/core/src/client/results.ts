import type * as z from 'zod/mini';
import { checkAgainst, describeIssues, type ParsableSchema } from '../validation';
import { PaymentResponseError } from '../errors';
import type { SchemaContext } from '../schemas/urls';
import { parseExpiresAt, parseServiceTime } from '../session';
import { paymentStatusOf } from '../transaction-status';
import {
  expiredSessionDataSchema,
  paymentDataSchema,
  refundDataSchema,
  sessionDataSchema,
  transactionDataSchema,
  type ResultReasonData,
} from './answer-schemas';
import type { CallOutcome } from './call';
import type { HttpMethod } from './transport';
import type {
  CheckoutSession,
  ExpiredCheckoutSession,
  PaymentResult,
  RefundResult,
  TransactionDetails,
  UnknownOutcome,
} from './types';

type Answered = Extract<CallOutcome, { kind: 'answered' }>;

export function toCheckoutSession(
  outcome: Answered,
  path: string,
  transactionRequestId: string,
  context: SchemaContext = {},
): CheckoutSession {
  const data = parseData(sessionDataSchema(context), outcome, path);
  const session: CheckoutSession = {
    checkoutUrl: data.checkoutUrl,
    expiresAt: parseExpiresAt(data.expiresAt, outcome.receivedAt),
    transactionRequestId,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
  };
  if (data.sessionId !== undefined) session.sessionId = String(data.sessionId);
  return session;
}

/** Direct and terminal sales: an answered call maps its transactionStatus; an unknown outcome is pending, never failed. */
export function toPaymentResult(outcome: CallOutcome, path: string, transactionRequestId: string): PaymentResult {
  if (outcome.kind === 'unknown') return unknownOutcome(outcome, transactionRequestId);
  const data = parseData(paymentDataSchema, outcome, path);
  const payment: PaymentResult = {
    status: paymentStatusOf(data.transactionStatus),
    transactionRequestId,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
    outcomeUnknown: false,
  };
  if (data.transactionStatus !== undefined) payment.transactionStatus = data.transactionStatus;
  if (data.transactionId !== undefined) payment.transactionId = String(data.transactionId);
  setResultReason(payment, data);
  return payment;
}

/** A refund: like a payment, an unknown outcome is pending, never failed. */
export function toRefundResult(outcome: CallOutcome, path: string, transactionRequestId: string): RefundResult {
  if (outcome.kind === 'unknown') return unknownOutcome(outcome, transactionRequestId);
  const data = parseData(refundDataSchema, outcome, path);
  const refund: RefundResult = {
    status: paymentStatusOf(data.transactionStatus),
    transactionStatus: data.transactionStatus,
    transactionId: data.transactionId,
    originalTransactionId: data.originalTransactionId,
    transactionRequestId,
    amount: data.amount,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
    outcomeUnknown: false,
  };
  setTimes(refund, data);
  setResultReason(refund, data);
  return refund;
}

export function toTransactionDetails(outcome: Answered, path: string): TransactionDetails {
  const data = parseData(transactionDataSchema, outcome, path, 'GET');
  const details: TransactionDetails = {
    status: paymentStatusOf(data.transactionStatus),
    transactionStatus: data.transactionStatus,
    transactionType: data.transactionType,
    transactionId: data.transactionId,
    transactionRequestId: data.transactionRequestId,
    amount: data.amount,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
  };
  if (data.referenceOrderId !== undefined) details.referenceOrderId = data.referenceOrderId;
  if (data.relatedTransactionStatus !== undefined) details.relatedTransactionStatus = data.relatedTransactionStatus;
  setTimes(details, data);
  setResultReason(details, data);
  return details;
}

export function toExpiredCheckoutSession(outcome: Answered, path: string): ExpiredCheckoutSession {
  const data = parseData(expiredSessionDataSchema, outcome, path);
  return {
    sessionId: data.sessionId,
    sessionStatus: data.sessionStatus,
    expiredAt: parseServiceTime(data.expiredAt) ?? new Date(outcome.receivedAt),
    ...(data.transactionId === undefined ? {} : { transactionId: data.transactionId }),
    ...(data.transactionRequestId === undefined ? {} : { transactionRequestId: data.transactionRequestId }),
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
  };
}

/** A write that may have been made although no answer said so: pending, never failed. */
function unknownOutcome(outcome: Extract<CallOutcome, { kind: 'unknown' }>, transactionRequestId: string): UnknownOutcome {
  return {
    status: 'pending',
    transactionRequestId,
    ...(outcome.error.traceId === undefined ? {} : { traceId: outcome.error.traceId }),
    outcomeUnknown: true,
  };
}

// The optional fields below are set on the result, not spread into it: V8 builds an object
// literal holding spreads several times slower, and these run on every answer.

/** Why the transaction ended as it did, when the service said. */
function setResultReason(result: { resultCode?: string; resultMessage?: string }, data: ResultReasonData): void {
  const resultCode = data.transactionResultCode ?? data.reason?.code;
  const resultMessage = data.transactionResultMsg ?? data.reason?.message;
  if (resultCode !== undefined) result.resultCode = resultCode;
  if (resultMessage !== undefined) result.resultMessage = resultMessage;
}

/** createTime / completeTime as dates; one the service sent unreadable is left out rather than failing a call that succeeded. */
function setTimes(
  result: { createdAt?: Date; completedAt?: Date },
  data: { createTime?: string | number | undefined; completeTime?: string | number | undefined },
): void {
  const createdAt = parseServiceTime(data.createTime);
  const completedAt = parseServiceTime(data.completeTime);
  if (createdAt !== undefined) result.createdAt = createdAt;
  if (completedAt !== undefined) result.completedAt = completedAt;
}

function parseData<S extends ParsableSchema>(schema: S, outcome: Answered, path: string, method: HttpMethod = 'POST'): z.output<S> {
  const parsed = checkAgainst(schema, outcome.envelope.data);
  if (parsed.success) return parsed.data;
  throw new PaymentResponseError(`${method} ${path} succeeded but its data is unusable: ${describeIssues(parsed.error.issues, 'data')}`, {
    traceId: outcome.envelope.traceId,
    httpStatus: outcome.httpStatus,
  });
}
