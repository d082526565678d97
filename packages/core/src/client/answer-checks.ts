import { isPlainObject } from '../plain-object';
import { REPORTED_AMOUNT_PARTS } from '../schemas/amount';
import type { SchemaContext } from '../schemas/urls';
import type { RefundData, SessionData, TransactionData } from './answer-schemas';

/**
 * Quick checks of the success answers a client reads most. Each says yes only
 * to data its schema in answer-schemas.ts accepts as it is (no transform, no
 * caught field), so a yes needs no zod parse; anything else is a no, and the
 * schema decides and words the issue. quick-checks.test.ts holds each to that.
 */

const PRINTABLE_ASCII = /^[!-~]+$/;

const textOrNumber = (value: unknown) => value === undefined || typeof value === 'string' || typeof value === 'number';
const optionalText = (value: unknown) => value === undefined || typeof value === 'string';
// A number id is turned into a string by the schema: not "as it is".
const idText = (value: unknown) => typeof value === 'string' && value.length > 0;

/**
 * A URL with any space, control or non-ASCII character, or another spelling
 * of the scheme, is a no (zod trims and strips those).
 */
export function isCheckoutSessionData(data: unknown, context: SchemaContext): data is SessionData {
  if (!isPlainObject(data)) return false;
  const { checkoutUrl, expiresAt, sessionId } = data;
  return (
    typeof checkoutUrl === 'string' &&
    (checkoutUrl.startsWith('https://') || (context.localDevelopment === true && checkoutUrl.startsWith('http://'))) &&
    PRINTABLE_ASCII.test(checkoutUrl) &&
    URL.canParse(checkoutUrl) &&
    textOrNumber(expiresAt) &&
    textOrNumber(sessionId)
  );
}

function isAmount(value: unknown): boolean {
  if (!isPlainObject(value) || typeof value.priceCurrency !== 'string') return false;
  for (const part of REPORTED_AMOUNT_PARTS) {
    const minor = value[part];
    if (minor !== undefined && !Number.isFinite(minor)) return false;
  }
  return true;
}

/** The outcome fields of a refund or transaction answer; a `reason` object is left to the schema, which may drop it. */
function hasOutcome(data: Record<string, unknown>): boolean {
  return (
    typeof data.transactionStatus === 'string' &&
    isAmount(data.amount) &&
    textOrNumber(data.createTime) &&
    textOrNumber(data.completeTime) &&
    optionalText(data.transactionResultCode) &&
    optionalText(data.transactionResultMsg) &&
    data.reason === undefined
  );
}

export function isRefundData(data: unknown): data is RefundData {
  return isPlainObject(data) && idText(data.transactionId) && idText(data.originalTransactionId) && hasOutcome(data);
}

export function isTransactionData(data: unknown): data is TransactionData {
  return (
    isPlainObject(data) &&
    idText(data.transactionId) &&
    idText(data.transactionRequestId) &&
    optionalText(data.referenceOrderId) &&
    typeof data.transactionType === 'string' &&
    optionalText(data.relatedTransactionStatus) &&
    hasOutcome(data)
  );
}
