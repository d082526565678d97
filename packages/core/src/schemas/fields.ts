// The field rules every request shares (ids, lengths).
import * as z from 'zod/mini';

/** Field rules shared by every request body (docs/service-contract.md#fields-and-rules). */
export const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const REFERENCE_ORDER_PATTERN = /^[A-Za-z0-9_\-|*]+$/;

const requiredString = (...checks: z.core.$ZodCheck<string>[]) => z.string().check(z.minLength(1, 'must not be empty'), ...checks);

export const appIdSchema = requiredString(z.maxLength(32, 'must be at most 32 characters'));
export const merchantIdSchema = requiredString(z.maxLength(32, 'must be at most 32 characters'));
const idSchema = (max: number) =>
  requiredString(z.maxLength(max, `must be at most ${max} characters`), z.regex(ID_PATTERN, 'may contain only letters, digits, "_" and "-"'));

export const transactionRequestIdSchema = idSchema(32);
/**
 * A transactionRequestId as the refund and query take it, up to 64 characters
 * (the vendor's contract): a refund's own, or the one of an earlier payment or
 * refund being named.
 */
export const longTransactionRequestIdSchema = idSchema(64);
/** The service's own transaction id: opaque, so only its presence and length are checked. */
export const transactionIdSchema = requiredString(z.maxLength(64, 'must be at most 64 characters'));
/** The longest referenceOrderId the service takes: shorter than a UUID's 36 characters, which merchants reach for first. */
const REFERENCE_ORDER_ID_MAX = 32;
export const referenceOrderIdSchema = z
  .string()
  .check(
    z.minLength(6, 'must be at least 6 characters'),
    z.maxLength(
      REFERENCE_ORDER_ID_MAX,
      `must be at most ${REFERENCE_ORDER_ID_MAX} characters: a UUID is 36, without its dashes 32; 16 random bytes in base64url are 22`,
    ),
    z.regex(REFERENCE_ORDER_PATTERN, 'may contain only letters, digits, "_", "-", "|" and "*"'),
  );
/** An ISO 3166-1 alpha-2 country code, as an address and a wallet's merchant country take it. */
export const countryCodeSchema = z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code in upper case, e.g. "US"'));
export const descriptionSchema = requiredString(z.maxLength(128, 'must be at most 128 characters'));

/** Lengths of the callback URLs (docs/service-contract.md#limits). */
export const NOTIFY_URL_MAX = 200;
export const MERCHANT_RETURN_URL_MAX = 256;
