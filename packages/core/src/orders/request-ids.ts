import { base64UrlOf } from '../bytes';
import { platform } from '../platform/current';

/**
 * Where an order's transactionRequestIds come from. They are derived from the
 * order, not drawn at random: attempt `n` of an order always has the same id.
 * A store that lost the order's record (a Redis flush, a restart of a memory
 * store) therefore sends the order's next payment under an id the service has
 * seen before, and the service answers that earlier attempt instead of
 * charging again (docs/service-contract.md#idempotency).
 */
export interface RequestIdSource {
  /** The id of attempt `sequence` of the order. */
  idOf(referenceOrderId: string, sequence: number): Promise<string>;
  /** The attempt number of `transactionRequestId` when it is one this source derives for the order, else undefined. */
  sequenceOf(referenceOrderId: string, transactionRequestId: string): Promise<number | undefined>;
}

/** `pm` + 22 base64url characters (132 bits) + `-` + the attempt number in base 36: at most 32 characters for the first 36^7 attempts. */
const PREFIX = 'pm';
const DIGEST_CHARACTERS = 22;
const SEQUENCE = /^[0-9a-z]{1,7}$/;

/**
 * Ids derived from the account (`appId`, `merchantId`) and the order. With a
 * `key`, through HMAC-SHA256: nobody without the key can make an id that
 * passes `sequenceOf`, so a payment made outside this app (another
 * environment, a script with a test key) is told apart from the guard's own.
 * The key must stay the same for as long as orders may be retried: changing
 * it is like losing every order's record.
 */
export function requestIdSource(account: { appId: string; merchantId: string }, key?: string): RequestIdSource {
  const stemOf = async (referenceOrderId: string): Promise<string> => {
    const material = `${account.appId}\u0000${account.merchantId}\u0000${referenceOrderId}`;
    const digest = key === undefined ? await platform.crypto.sha256(material) : await platform.crypto.hmacSha256(key, material);
    return `${PREFIX}${base64UrlOf(digest).slice(0, DIGEST_CHARACTERS)}-`;
  };
  return {
    idOf: async (referenceOrderId, sequence) => `${await stemOf(referenceOrderId)}${sequence.toString(36)}`,
    async sequenceOf(referenceOrderId, transactionRequestId) {
      const stem = await stemOf(referenceOrderId);
      if (!transactionRequestId.startsWith(stem)) return undefined;
      const suffix = transactionRequestId.slice(stem.length);
      return SEQUENCE.test(suffix) ? Number.parseInt(suffix, 36) : undefined;
    },
  };
}
