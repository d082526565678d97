import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from '../errors';
import { SURROUNDING_WHITESPACE_RULE } from '../schemas/secret-length';

/** HMAC-SHA256 of the raw body bytes, as raw digest bytes. */
export function hmacSha256(secret: string, body: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;
const BASE64_DIGEST = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * Turns an `X-Signature` value into digest bytes. Accepted forms: hex (the
 * service's own, lowercase), an optional `sha256=` prefix, and base64 or
 * base64url. Anything else yields undefined, which the caller treats as a
 * mismatch so that malformed and wrong signatures are indistinguishable.
 */
export function decodeSignature(header: string): Buffer | undefined {
  // The service's own form first, without a regex: hex decoding stops at the first
  // character that is not hex, so 64 characters giving 32 bytes were all hex.
  if (header.length === 64) {
    const bytes = Buffer.from(header, 'hex');
    if (bytes.length === 32) return bytes;
  }
  const value = header.trim().replace(/^sha256=/i, '');
  if (HEX_DIGEST.test(value)) return Buffer.from(value, 'hex');
  if (BASE64_DIGEST.test(value)) {
    const bytes = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
    return bytes.length === 32 ? bytes : undefined;
  }
  return undefined;
}

/**
 * True when `signature` matches the body under any of `secrets`. Every secret
 * is tried (no early exit) and each comparison is constant-time, so timing
 * reveals neither which secret matched nor how much of the digest did.
 */
export function signatureMatches(signature: string, body: Uint8Array, secrets: readonly string[]): boolean {
  const given = decodeSignature(signature);
  let matched = false;
  for (const secret of secrets) {
    const expected = hmacSha256(secret, body);
    const candidate = given !== undefined && given.length === expected.length ? given : Buffer.alloc(expected.length);
    const equal = timingSafeEqual(candidate, expected);
    matched = matched || (equal && given !== undefined);
  }
  return matched;
}

/** An empty secret, or one with surrounding whitespace, is refused loudly rather than failing every delivery. */
export function assertUsableSecrets(secrets: readonly string[]): void {
  if (secrets.length === 0) {
    throw new WebhookVerificationError('invalid_secret', 'No webhook secret was configured: pass `secret` or a non-empty `secrets` list.');
  }
  secrets.forEach((secret, index) => {
    const which = secrets.length > 1 ? `Webhook secret #${index + 1}` : 'The webhook secret';
    if (typeof secret !== 'string' || secret.length === 0) {
      throw new WebhookVerificationError('invalid_secret', `${which} is empty.`);
    }
    if (SURROUNDING_WHITESPACE_RULE.isBroken(secret)) {
      throw new WebhookVerificationError('invalid_secret', `${which} ${SURROUNDING_WHITESPACE_RULE.message}.`);
    }
  });
}
