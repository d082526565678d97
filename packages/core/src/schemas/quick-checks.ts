import { isCurrencyCode } from '../money';
import { payableTotal } from './amount';
import { ID_PATTERN, MERCHANT_RETURN_URL_MAX, NOTIFY_URL_MAX, REFERENCE_ORDER_PATTERN } from './fields';
import { refundPartsTotal } from './refund';
import { isCallbackUrl, type SchemaContext } from './urls';

/**
 * Quick checks of the request bodies a client sends most. Each says yes only
 * to the common body that its zod schema certainly accepts as it is (no
 * transform, no default), in a fraction of zod's time; anything else (a rare
 * field, any doubt) is a no, and the schema decides and words the issues.
 * Never a yes the schema would refuse: quick-checks.test.ts holds each to that.
 */
export type QuickCheck = (body: unknown) => boolean;

type Fields = Record<string, unknown>;

const text = (value: unknown, min: number, max: number): value is string => typeof value === 'string' && value.length >= min && value.length <= max;
const id = (value: unknown, max: number): value is string => text(value, 1, max) && ID_PATTERN.test(value);
const minorUnits = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const optionalMinorUnits = (value: unknown): value is number | undefined => value === undefined || minorUnits(value);
const currency = (value: unknown): value is string => typeof value === 'string' && isCurrencyCode(value);

/** The object's own keys, when it is a non-null object with no key outside `allowed`. */
function fieldsOf(value: unknown, allowed: ReadonlySet<string>): Fields | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) if (!allowed.has(key)) return undefined;
  return value as Fields;
}

const account = (fields: Fields) => text(fields.appId, 1, 32) && text(fields.merchantId, 1, 32);
const callbackUrl = (value: unknown, maxLength: number, context: SchemaContext) => value === undefined || isCallbackUrl(value, maxLength, context);
const exactlyOne = (first: unknown, second: unknown) => (first === undefined) !== (second === undefined);

const SESSION_KEYS = new Set(['appId', 'merchantId', 'transactionRequestId', 'referenceOrderId', 'amount', 'description', 'notifyUrl', 'merchantReturnUrl']);
const SESSION_AMOUNT_KEYS = new Set(['orderAmount', 'taxAmount', 'surchargeAmount', 'priceCurrency']);

function isSessionAmount(value: unknown): boolean {
  const amount = fieldsOf(value, SESSION_AMOUNT_KEYS);
  return (
    amount !== undefined &&
    minorUnits(amount.orderAmount) &&
    optionalMinorUnits(amount.taxAmount) &&
    optionalMinorUnits(amount.surchargeAmount) &&
    currency(amount.priceCurrency) &&
    payableTotal(amount as Parameters<typeof payableTotal>[0]) > 0
  );
}

/** createCheckoutSessionRequestSchema(context) without a productList or the address flags. */
export function checkoutSessionQuickCheck(context: SchemaContext): QuickCheck {
  return (body) => {
    const fields = fieldsOf(body, SESSION_KEYS);
    return (
      fields !== undefined &&
      account(fields) &&
      id(fields.transactionRequestId, 32) &&
      text(fields.referenceOrderId, 6, 32) &&
      REFERENCE_ORDER_PATTERN.test(fields.referenceOrderId) &&
      text(fields.description, 1, 128) &&
      isSessionAmount(fields.amount) &&
      callbackUrl(fields.notifyUrl, NOTIFY_URL_MAX, context) &&
      callbackUrl(fields.merchantReturnUrl, MERCHANT_RETURN_URL_MAX, context)
    );
  };
}

const REFUND_KEYS = new Set(['appId', 'merchantId', 'transactionRequestId', 'originalTransactionId', 'originalTransactionRequestId', 'amount', 'description', 'notifyUrl']);
const REFUND_AMOUNT_KEYS = new Set(['priceCurrency', 'totalAmount', 'orderAmount', 'taxAmount', 'surchargeAmount', 'tipAmount']);

function isRefundAmount(value: unknown): boolean {
  const amount = fieldsOf(value, REFUND_AMOUNT_KEYS);
  if (
    amount === undefined ||
    !currency(amount.priceCurrency) ||
    ![amount.totalAmount, amount.orderAmount, amount.taxAmount, amount.surchargeAmount, amount.tipAmount].every(optionalMinorUnits)
  ) {
    return false;
  }
  const total = refundPartsTotal(amount as Parameters<typeof refundPartsTotal>[0]);
  return total > 0 && (amount.totalAmount === undefined || amount.totalAmount === total);
}

/** createRefundRequestSchema(context) without `attach`. */
export function refundQuickCheck(context: SchemaContext): QuickCheck {
  return (body) => {
    const fields = fieldsOf(body, REFUND_KEYS);
    return (
      fields !== undefined &&
      account(fields) &&
      id(fields.transactionRequestId, 64) &&
      exactlyOne(fields.originalTransactionId, fields.originalTransactionRequestId) &&
      (fields.originalTransactionId === undefined || text(fields.originalTransactionId, 1, 64)) &&
      (fields.originalTransactionRequestId === undefined || id(fields.originalTransactionRequestId, 64)) &&
      (fields.amount === undefined || isRefundAmount(fields.amount)) &&
      (fields.description === undefined || text(fields.description, 1, 128)) &&
      callbackUrl(fields.notifyUrl, NOTIFY_URL_MAX, context)
    );
  };
}

const QUERY_KEYS = new Set(['appId', 'merchantId', 'transactionId', 'transactionRequestId']);

/** transactionQuerySchema. */
export const transactionQueryQuickCheck: QuickCheck = (query) => {
  const fields = fieldsOf(query, QUERY_KEYS);
  return (
    fields !== undefined &&
    account(fields) &&
    exactlyOne(fields.transactionId, fields.transactionRequestId) &&
    (fields.transactionId === undefined || text(fields.transactionId, 1, 64)) &&
    (fields.transactionRequestId === undefined || id(fields.transactionRequestId, 64))
  );
};
