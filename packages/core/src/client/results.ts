// An answer to the client's results; session expiry.
import type * as z from 'zod/mini';
import type { HttpMethod } from '../platform/contract';
import type { SchemaContext } from '../schemas/urls';
import { PaymentResponseError } from '../shared/errors';
import { paymentStatusOf } from '../shared/types';
import { checkAgainst, describeIssues, type ParsableSchema } from '../shared/validation';
import type { CallOutcome } from './call';
import { expiredSessionDataSchema, paymentDataSchema, refundDataSchema, type ResultReasonData, sessionDataSchema, transactionDataSchema } from './response';
import type { CheckoutSession, ExpiredCheckoutSession, PaymentResult, RefundResult, TransactionDetails, UnknownOutcome } from './types';

/** A checkout session is usable for 30 minutes after the successful create-session response. */
export const SESSION_LIFETIME_MS = 30 * 60 * 1000;

/** Epoch values below this are taken as seconds: as milliseconds they would fall in January 1970. */
const SECONDS_THRESHOLD = 1e11;

/**
 * How far from its receipt an expiresAt is believed. Up to a year in the
 * past: a repeated transactionRequestId is answered with the session it
 * opened then, long expired, and taking that for a fresh 30 minutes would
 * hand out a dead checkoutUrl. At most a day ahead.
 */
const EARLIEST_BEFORE_RECEIPT_MS = 366 * 24 * 60 * 60_000;
const LATEST_AFTER_RECEIPT_MS = 24 * 60 * 60_000;

/**
 * The format of `expiresAt` is left open (docs/service-contract.md#session-lifetime): ISO 8601 is expected, epoch
 * milliseconds or seconds are accepted. When it is absent, unreadable or
 * implausible (more than a year before receipt, more than a day after it), the
 * lifetime is counted from when the response arrived, so a session never
 * carries an Invalid Date or a time that would keep a dead checkoutUrl in use.
 */
export function parseExpiresAt(value: unknown, receivedAt: number): Date {
  const at = serviceTimeMs(value);
  const plausible =
    at !== undefined && at >= receivedAt - EARLIEST_BEFORE_RECEIPT_MS && at <= receivedAt + LATEST_AFTER_RECEIPT_MS;
  return new Date(plausible ? at : receivedAt + SESSION_LIFETIME_MS);
}

/** A time the service sent: ISO 8601, epoch milliseconds or epoch seconds; undefined when absent or unreadable. */
export function parseServiceTime(value: unknown): Date | undefined {
  const at = serviceTimeMs(value);
  return at === undefined ? undefined : new Date(at);
}

/** parseServiceTime's time as epoch milliseconds: every answer's expiresAt is read, so no Date is made only to be read back. */
function serviceTimeMs(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    // Past JavaScript's date range (e.g. 1e20) a Date is Invalid: that is no time at all.
    const at = new Date(value < SECONDS_THRESHOLD ? value * 1000 : value).getTime();
    return Number.isNaN(at) ? undefined : at;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return serviceTimeMs(Number(text));
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** True once the session's checkoutUrl must no longer be used: create a new session instead. */
export function isSessionExpired(session: { expiresAt: Date }, now: number | Date = Date.now()): boolean {
  const at = typeof now === 'number' ? now : now.getTime();
  return at >= session.expiresAt.getTime();
}

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
