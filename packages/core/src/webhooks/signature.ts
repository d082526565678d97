// Signatures, signed times, signing a delivery.
import { platformCrypto } from '../platform/current-verifier';
import { bytesOfBase64, hexOf, utf8Text } from '../shared/bytes';
import { WebhookVerificationError } from '../shared/errors';
import { SURROUNDING_WHITESPACE_RULE } from '../shared/validation';

const DIGEST_BYTES = 32;
const HEX_DIGEST_LENGTH = 2 * DIGEST_BYTES;
const HEX_DIGEST = new RegExp(`^[0-9a-fA-F]{${HEX_DIGEST_LENGTH}}$`);
const BASE64_DIGEST = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * An `X-Signature` value as the lowercase hex of its digest, the form the
 * expected digest is compared in. Accepted forms: hex (the service's own,
 * lowercase), an optional `sha256=` prefix, and base64 or base64url. Anything
 * else yields undefined, which the caller treats as a mismatch so that
 * malformed and wrong signatures are indistinguishable.
 */
export function signatureHex(header: string): string | undefined {
  // The service's own form, taken without a regex: a character that is not hex never matches a hex digest.
  if (header.length === HEX_DIGEST_LENGTH) return header.toLowerCase();
  const value = header.trim().replace(/^sha256=/i, '');
  if (HEX_DIGEST.test(value)) return value.toLowerCase();
  if (BASE64_DIGEST.test(value)) {
    const bytes = bytesOfBase64(value);
    return bytes?.length === DIGEST_BYTES ? hexOf(bytes) : undefined;
  }
  return undefined;
}

/**
 * Whether the signature equals one expected digest, in time independent of
 * both: every character of the expected digest is compared whatever the
 * earlier ones held, and a missing or short signature costs what a wrong one
 * does (`charCodeAt` past its end is NaN, which XORs as 0).
 */
export function hexMatches(given: string | undefined, expected: string): boolean {
  const candidate = given ?? '';
  let difference = candidate.length ^ expected.length;
  for (let index = 0; index < expected.length; index++) difference |= candidate.charCodeAt(index) ^ expected.charCodeAt(index);
  return difference === 0 && given !== undefined;
}

/**
 * True when `signature` matches the body under any of `secrets`. Every digest
 * is computed and compared (no early exit), so timing reveals neither which
 * secret matched nor how much of the digest did. A boolean at once where the
 * platform hashes synchronously (Node: no promise, and no array of digests,
 * per delivery), a promise of one where it does not (Web Crypto).
 */
export function signatureMatches(signature: string, body: Uint8Array, secrets: readonly string[]): boolean | Promise<boolean> {
  const given = signatureHex(signature);
  const { hmacSha256HexSync, hmacSha256 } = platformCrypto;
  if (hmacSha256HexSync === undefined) {
    return Promise.all(secrets.map((secret) => hmacSha256(secret, body))).then((expected) =>
      expected.reduce((matched, digest) => hexMatches(given, hexOf(digest)) || matched, false),
    );
  }
  let matched = false;
  for (let index = 0; index < secrets.length; index++) matched = hexMatches(given, hmacSha256HexSync(secrets[index]!, body)) || matched;
  return matched;
}

/** An empty secret, or one with surrounding whitespace, is refused loudly rather than failing every delivery. */
export function assertUsableSecrets(secrets: readonly string[]): void {
  if (secrets.length === 0) {
    throw new WebhookVerificationError('invalid_secret', 'No webhook secret was configured: pass `secret` or a non-empty `secrets` list.');
  }
  // A loop, not forEach: every delivery runs this, and the callback would be a closure built per call.
  for (let index = 0; index < secrets.length; index++) {
    const secret = secrets[index];
    if (typeof secret !== 'string' || secret.length === 0) {
      throw new WebhookVerificationError('invalid_secret', `${secretName(index, secrets.length)} is empty.`);
    }
    if (SURROUNDING_WHITESPACE_RULE.isBroken(secret)) {
      throw new WebhookVerificationError('invalid_secret', `${secretName(index, secrets.length)} ${SURROUNDING_WHITESPACE_RULE.message}.`);
    }
  }
}

function secretName(index: number, count: number): string {
  return count > 1 ? `Webhook secret #${index + 1}` : 'The webhook secret';
}

/** The body field the sandbox (and the service, as far as it is known) signs its notification time in. */
export const DEFAULT_SIGNED_TIME_FIELD = 'notifyTime';

const EPOCH_MS_DIGITS = 13;

/**
 * The epoch milliseconds that `text` spells as exactly 13 digits (the
 * `X-Timestamp` header's form, and a signed time's), else undefined. Read
 * digit by digit: every delivery parses one, and a regex test then Number()
 * cost it several times as much. 13 digits stay below 2^53, so the sum is exact.
 */
export function epochMsOf(text: string): number | undefined {
  if (text.length !== EPOCH_MS_DIGITS) return undefined;
  let value = 0;
  for (let index = 0; index < EPOCH_MS_DIGITS; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value;
}

// Date and time with a zone (Z, ±hh, ±hhmm or ±hh:mm), e.g. 2025-12-24T10:00:00+08:00. A time without
// a zone is refused: read as this server's local time, it would shift the window by the zone difference.
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)$/i;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}

// Every verified delivery reads its signed time here: the fields are taken one by one, with
// no array, closure or Date built on the way (those cost a verification about 1.3 µs).
function isoTime(text: string): number | undefined {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = Number(match[6] ?? 0);
  const fraction = match[7];
  const milliseconds = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const offsetHours = Number(match[10] ?? 0);
  const offsetMinutes = Number(match[11] ?? 0);
  // Date.UTC would roll 2025-02-30 over into March, and read year 0050 as 1950: neither is the time
  // sent, and no service signed a notification before 1970.
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, milliseconds);
  const offsetMs = (offsetHours * 60 + offsetMinutes) * 60_000;
  return match[9] === '-' ? local + offsetMs : local - offsetMs;
}

/**
 * Epoch milliseconds of a signed time given as ISO 8601 with a zone, or as
 * 13-digit epoch milliseconds (a number or its digits); undefined for
 * anything else.
 */
export function parseSignedTime(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && epochMsOf(String(value)) !== undefined ? value : undefined;
  if (typeof value !== 'string') return undefined;
  return epochMsOf(value) ?? isoTime(value);
}

export interface SignedTimeRule {
  /** The top-level body field holding the time. */
  field: string;
  /** Refuse a body without it, instead of accepting it unchecked. */
  required: boolean;
  now: number;
  toleranceMs: number;
}

/**
 * Checks the time the service signed into the body against the window.
 * `X-Timestamp` is not signed, so a replay carries a fresh one; this time
 * cannot be changed without breaking the signature, so a captured delivery
 * stops being accepted once it is older than the window. Returns the time,
 * or undefined when the body has none and none is required.
 */
export function checkSignedTime(payload: Readonly<Record<string, unknown>>, rule: SignedTimeRule): number | undefined {
  const value = Object.hasOwn(payload, rule.field) ? payload[rule.field] : undefined;
  if (value === undefined || value === null) {
    if (!rule.required) return undefined;
    throw new WebhookVerificationError(
      'missing_signed_time',
      `The webhook body has no ${rule.field} field, and a signed time is required: set webhook.signedTimeField to the field the service signs its time in.`,
    );
  }
  const time = parseSignedTime(value);
  if (time === undefined) {
    throw new WebhookVerificationError(
      'bad_signed_time',
      `The webhook body's ${rule.field} is neither ISO 8601 with a time zone nor epoch milliseconds (13 digits).`,
    );
  }
  if (rule.now - time > rule.toleranceMs) {
    throw new WebhookVerificationError(
      'stale_event',
      `The event's signed ${rule.field} is older than the allowed ${rule.toleranceMs} ms: a replayed delivery (its X-Timestamp is not signed and does not count) or one delivered too late.`,
    );
  }
  if (time - rule.now > rule.toleranceMs) {
    throw new WebhookVerificationError(
      'future_event',
      `The event's signed ${rule.field} is more than ${rule.toleranceMs} ms in the future: check this server's clock.`,
    );
  }
  return time;
}

export interface SignWebhookOptions {
  /** A payload to serialise as JSON, or `rawBody` to sign exact bytes. */
  payload?: unknown;
  rawBody?: string | Uint8Array;
  secret: string;
  /** Epoch ms for X-Timestamp. Default `Date.now()`. */
  timestamp?: number;
  /** X-Client-Request-Id. Default a fresh UUID. */
  deliveryId?: string;
}

export interface SignedWebhook {
  body: string;
  headers: { 'content-type': string; 'x-signature': string; 'x-client-request-id': string; 'x-timestamp': string };
}

function bodyOf(options: SignWebhookOptions): string {
  if (options.rawBody === undefined) return JSON.stringify(options.payload ?? {});
  return typeof options.rawBody === 'string' ? options.rawBody : utf8Text(options.rawBody);
}

function signed(options: SignWebhookOptions, body: string, signature: string): SignedWebhook {
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-signature': signature,
      'x-client-request-id': options.deliveryId ?? crypto.randomUUID(),
      'x-timestamp': String(options.timestamp ?? Date.now()),
    },
  };
}

/**
 * Produces a delivery exactly as the service sends one (lowercase hex HMAC-SHA256
 * of the body), so merchants can test their webhook handlers end to end. Works
 * on every runtime.
 */
export async function signWebhookAsync(options: SignWebhookOptions): Promise<SignedWebhook> {
  const body = bodyOf(options);
  return signed(options, body, hexOf(await platformCrypto.hmacSha256(options.secret, body)));
}

/**
 * `signWebhookAsync` without the promise, for Node (node:crypto hashes
 * synchronously). Web Crypto has no synchronous HMAC, so on Bun, Deno,
 * workerd and the edge runtime this throws: use `signWebhookAsync` there.
 */
export function signWebhook(options: SignWebhookOptions): SignedWebhook {
  const { hmacSha256HexSync } = platformCrypto;
  if (hmacSha256HexSync === undefined) {
    throw new TypeError('signWebhook() needs synchronous node:crypto, which this runtime lacks: use `await signWebhookAsync(options)` instead.');
  }
  const body = bodyOf(options);
  return signed(options, body, hmacSha256HexSync(options.secret, body));
}
