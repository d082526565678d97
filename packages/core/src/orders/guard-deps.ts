// What the guard is handed, its refusals, derived request ids, the order lock.
import type { PaymentClient } from '../client/types';
import { platform } from '../platform/current';
import { base64UrlOf } from '../shared/bytes';
import type { Logger } from '../shared/logger';
import type { MerchantOrder, OrderAttempt } from '../shared/types';
import type { EventDedupeDeps, QueuedEventSeal } from '../webhook-dedupe/handle-event-once';
import type { EventProcessing } from '../webhooks/event-handlers';
import type { OrderAttemptStore } from './store';

/**
 * Why the guard sent nothing for an order. The routes choose the answer: an
 * `already-paid` wallet payment is a success to the browser, a checkout of a
 * paid order a conflict.
 */
export type OrderRefusal =
  /** The merchant says the order takes no payment. */
  | { refused: 'not-payable' }
  /** The order is paid; `attempt` is the payment. */
  | { refused: 'already-paid'; attempt: OrderAttempt }
  /** The outcome of the order's last attempt is not known yet. */
  | { refused: 'pending'; retryAfterSeconds: number }
  /** Another request holds the order's lock. */
  | { refused: 'in-progress'; retryAfterSeconds: number }
  /** The service would not expire a hosted session it still reports open. */
  | { refused: 'not-cancelled' };

/** Seconds after which a pending payment is worth asking about again. */
export const PAYMENT_PENDING_RETRY_AFTER_SECONDS = 5;

/** A payment request for an order rarely takes longer than this; the browser may try again after it. */
const PAYMENT_IN_PROGRESS_RETRY_AFTER_SECONDS = 2;

export const inProgress: OrderRefusal = { refused: 'in-progress', retryAfterSeconds: PAYMENT_IN_PROGRESS_RETRY_AFTER_SECONDS };

export function isRefusal<T extends object>(answer: T | OrderRefusal): answer is OrderRefusal {
  return 'refused' in answer;
}

/** The merchant's word on the order comes first: one it says takes no payment is refused whatever its attempts. */
export function notPayable(order: Pick<MerchantOrder, 'payable'>): OrderRefusal | undefined {
  return order.payable === false ? { refused: 'not-payable' } : undefined;
}

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

/** What the order guard works with: the guard's resolved options (handed on whole) and what it is given beside them. */
export interface OrderGuardDeps {
  client: PaymentClient;
  /** Already wrapped by checkedOrderStore. */
  store: OrderAttemptStore;
  lockTtlMs: number;
  attemptTtlMs: number;
  clock: { now(): number };
  logger: Logger;
  /** Each order's transactionRequestIds. */
  requestIds: RequestIdSource;
  /** How long after a payment call starts the service may still receive it (see lateArrivalMs). */
  lateArrivalMs: number;
  /** Reconciliation hands final outcomes to the merchant's handlers (or queues them) through the same dedupe as the webhook route. */
  events: EventDedupeDeps & { processing: EventProcessing | undefined; seal: QueuedEventSeal };
}

/**
 * Runs `work` holding the order's lock, or resolves `whenHeld()` without
 * running it when another request holds the lock. The lock is freed
 * afterwards, best effort: one that cannot be freed expires with `lockTtlMs`.
 */
export async function underOrderLock<T>(
  deps: OrderGuardDeps,
  referenceOrderId: string,
  work: () => Promise<T>,
  whenHeld: () => T | Promise<T>,
): Promise<T> {
  const token = await deps.store.lock(referenceOrderId, deps.lockTtlMs);
  if (token === undefined) return whenHeld();
  try {
    return await work();
  } finally {
    await deps.store.unlock(referenceOrderId, token).catch((error: unknown) => {
      deps.logger.error({ referenceOrderId, err: error }, 'order attempt store: an order lock could not be freed; it lasts until lockTtlMs ends');
    });
  }
}
