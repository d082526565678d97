import { hexOf } from '../bytes';
import { platformCrypto } from '../platform/current-verifier';
import type { PaymentEvent } from './event';
import type { QueuedEvent } from './event-processing';
import { hexMatches } from './signature';

/*
 * A job read back from the queue carries neither the signed body nor its
 * signature, and whoever can write to the queue's Redis can write a job: the
 * routes seal what they queue (the dedupe key and the event, webhook or
 * reconciliation alike) and a worker runs only a job whose seal it can check
 * again. The seal's key is derived from a webhook secret, which the queue's
 * Redis never holds; derived rather than the secret itself, so that a seal
 * read from Redis signs nothing the webhook route would accept.
 */
const SEAL_KEY_LABEL = 'paymount queued-event seal v1';

/** What a seal covers: the job's key and event, as JSON (BullMQ stores a job's data as JSON, so a real job reads back the same text). */
function sealedContent(key: string, event: PaymentEvent): string {
  return JSON.stringify([key, event]);
}

export interface QueuedEventSeal {
  /** The seal of a job about to be queued, under the first (current) webhook secret. */
  seal(key: string, event: PaymentEvent): Promise<string>;
  /** Whether a job read from the queue was sealed under any of the webhook secrets (rotation: old and new both verify). */
  verify(queued: QueuedEvent): Promise<boolean>;
}

/** Seals queued events with keys derived from `secrets`, derived once. */
export function queuedEventSeal(secrets: readonly string[]): QueuedEventSeal {
  let keys: Promise<string[]> | undefined;
  const sealKeys = () => (keys ??= Promise.all(secrets.map(async (secret) => hexOf(await platformCrypto.hmacSha256(secret, SEAL_KEY_LABEL)))));
  const macOf = async (key: string, content: string) => hexOf(await platformCrypto.hmacSha256(key, content));
  return {
    async seal(key, event) {
      const [current] = await sealKeys();
      return macOf(current!, sealedContent(key, event));
    },
    async verify({ key, event, mac }) {
      if (typeof mac !== 'string' || typeof key !== 'string' || typeof event !== 'object' || event === null) return false;
      const content = sealedContent(key, event);
      const expected = await Promise.all((await sealKeys()).map((sealKey) => macOf(sealKey, content)));
      // Every secret's seal is compared, so timing does not tell which matched.
      return expected.reduce((matched, digest) => hexMatches(mac, digest) || matched, false);
    },
  };
}
