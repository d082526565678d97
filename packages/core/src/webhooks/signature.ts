import { bytesOfBase64, hexOf } from '../bytes';
import { WebhookVerificationError } from '../errors';
import { platformCrypto } from '../platform/current-verifier';
import { SURROUNDING_WHITESPACE_RULE } from '../schemas/secret-length';

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
