// What the order guard works with (its deps, refusals, derived request ids, the order lock), and
// deciding the next attempt of an order and sending it; asking the service about one in doubt.
import type { PaymentClient, TransactionDetails } from '../client/types';
import { platform } from '../platform/current';
import { payableTotal } from '../schemas/amount';
import { base64UrlOf } from '../shared/bytes';
import { PaymentApiError, PaymentNotFoundError, PaymentRateLimitError, PaymentValidationError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { MerchantOrder, OrderAttempt, OrderAttemptKind, OrderAttemptState } from '../shared/types';
import type { EventDedupeDeps, QueuedEventSeal } from '../webhook-dedupe/handle-event-once';
import type { EventProcessing } from '../webhooks/event-handlers';
import { isFinalState, type OrderAttemptStore } from './store';

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

/**
 * The order guard's settings, each with a default: what the guard reads, and (each optional) what a
 * merchant writes in the routes' `orders` option (OrderGuardOptions).
 */
export interface OrderGuardSettings {
  /**
   * Longest time a payment request holds its order's lock, in milliseconds: at least twice
   * the client's `deadlineMs` (a request may make two calls), or the routes
   * refuse to start. Default 2 × `deadlineMs` + 30 s: 210 s with the
   * client's default deadline; a client object's own `deadlineMs` counts. A lock left by a
   * crashed process blocks its order this long.
   */
  lockTtlMs: number;
  /**
   * How long an order's attempt is remembered after its last change, in milliseconds: past a
   * session's 30 minutes and a pending payment's settlement. Default 24 hours;
   * after that only `resolveOrder`'s `payable` guards the order.
   */
  attemptTtlMs: number;
}

/** What the order guard works with: its settings (the resolved options, handed on whole) and what it is given beside them. */
export interface OrderGuardDeps extends OrderGuardSettings {
  client: PaymentClient;
  /** Already wrapped by checkedOrderStore. */
  store: OrderAttemptStore;
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

/**
 * The service takes a request whose X-Timestamp is within ±10 minutes of its
 * own clock (docs/service-contract.md#authentication). The last attempt of a
 * call is stamped before its deadline; with the two clocks up to 10 minutes
 * apart, the service may receive it until 20 minutes after that.
 */
export const SERVICE_TIMESTAMP_REACH_MS = 20 * 60_000;

/** How long after a call starts its request may still reach the service: its deadline, then the timestamp's reach. */
export function lateArrivalMs(deadlineMs: number): number {
  return deadlineMs + SERVICE_TIMESTAMP_REACH_MS;
}

/** Until when the service may still receive the attempt's request; an attempt recorded without it counts from its last change. */
export function inFlightUntil(deps: Pick<OrderGuardDeps, 'lateArrivalMs'>, attempt: OrderAttempt): number {
  return attempt.inFlightUntil ?? attempt.updatedAt + deps.lateArrivalMs;
}

/**
 * An attempt brought up to date with the service. `inFlight`: the service
 * knows no transaction by its id yet, but its request may still reach the
 * service, so the attempt is kept as it was.
 */
export interface CheckedAttempt {
  attempt: OrderAttempt;
  details?: TransactionDetails;
  inFlight?: boolean;
}

/** The service's view of the attempt's transaction, or undefined when it knows none by that transactionRequestId. */
export async function queryAttempt(client: PaymentClient, attempt: OrderAttempt): Promise<TransactionDetails | undefined> {
  try {
    return await client.getTransaction({ transactionRequestId: attempt.transactionRequestId });
  } catch (error) {
    if (error instanceof PaymentNotFoundError) return undefined;
    throw error;
  }
}

/** The attempt state a transaction's status gives: a final one, or the attempt's own while the service has not finished. */
function stateFrom(details: TransactionDetails, attempt: OrderAttempt): OrderAttemptState {
  return details.status === 'pending' ? attempt.state : details.status;
}

/**
 * Records what the service said of the attempt (under the order's lock), and
 * answers the attempt as it now stands. A transaction the service does not
 * know is not proof that it never will: until the request can no longer reach
 * the service (`inFlightUntil`) the attempt stays as it is, and only after
 * that is it recorded closed, nothing charged and nothing for the handlers.
 */
export async function applyServiceView(
  deps: OrderGuardDeps,
  attempt: OrderAttempt,
  details: TransactionDetails | undefined,
): Promise<CheckedAttempt> {
  const { store, attemptTtlMs, clock } = deps;
  const now = clock.now();
  if (details === undefined) {
    if (now < inFlightUntil(deps, attempt)) return { attempt, inFlight: true };
    const neverReceived = { state: 'closed' as const, handled: true, updatedAt: now };
    await store.settle(attempt.referenceOrderId, attempt.transactionRequestId, neverReceived, attemptTtlMs);
    return { attempt: { ...attempt, state: 'closed', handledState: 'closed', updatedAt: now } };
  }
  const update = { state: stateFrom(details, attempt), transactionId: details.transactionId, updatedAt: now };
  await store.settle(attempt.referenceOrderId, attempt.transactionRequestId, update, attemptTtlMs);
  return { attempt: { ...attempt, ...update }, details };
}

/** Asks the service about an attempt and records the answer. */
export async function checkAttempt(deps: OrderGuardDeps, attempt: OrderAttempt): Promise<CheckedAttempt> {
  return applyServiceView(deps, attempt, await queryAttempt(deps.client, attempt));
}

/**
 * Ends the attempt's hosted session with the service before the order is
 * paid another way, so its page cannot charge the order too. A session the
 * service refuses to expire (it was paid meanwhile, or is unknown) is asked
 * about instead, and whatever it says is recorded: paid answers the order as
 * paid. `reason` goes to the service with the expiry. Rate limits and network failures propagate: nothing else is sent.
 */
export async function closeHostedAttempt(
  deps: OrderGuardDeps,
  attempt: OrderAttempt,
  reason = 'the order is being paid another way',
): Promise<CheckedAttempt> {
  if (attempt.sessionId === undefined) return checkAttempt(deps, attempt);
  try {
    await deps.client.expireCheckoutSession({ sessionId: attempt.sessionId, reason });
  } catch (error) {
    if (!(error instanceof PaymentApiError) || error instanceof PaymentRateLimitError) throw error;
    deps.logger.info(
      { referenceOrderId: attempt.referenceOrderId, transactionRequestId: attempt.transactionRequestId, serviceCode: error.serviceCode },
      'the service refused to expire the order’s hosted session; asking it about the session instead',
    );
    return checkAttempt(deps, attempt);
  }
  const closed = { state: 'closed' as const, updatedAt: deps.clock.now() };
  await deps.store.settle(attempt.referenceOrderId, attempt.transactionRequestId, closed, deps.attemptTtlMs);
  return { attempt: { ...attempt, ...closed } };
}

/**
 * The session of a hosted attempt whose create-session answer was lost, and
 * that the service reports open: asked for again under the attempt's own id,
 * the service answers that same session (whatever the body says), so it can
 * be expired. Only from an attempt that recorded its amount, which the
 * request must carry; resolves undefined when the session cannot be named.
 */
export async function recoverLostSession(deps: OrderGuardDeps, attempt: OrderAttempt): Promise<OrderAttempt | undefined> {
  if (attempt.amount === undefined || attempt.currency === undefined) return undefined;
  const session = await deps.client.createCheckoutSession({
    transactionRequestId: attempt.transactionRequestId,
    referenceOrderId: attempt.referenceOrderId,
    amount: { orderAmount: attempt.amount, priceCurrency: attempt.currency },
    description: 'A checkout whose answer was lost',
  });
  if (session.sessionId === undefined) return undefined;
  deps.logger.info(
    { referenceOrderId: attempt.referenceOrderId, transactionRequestId: attempt.transactionRequestId, sessionId: session.sessionId },
    'checkout session whose answer was lost named again under its transactionRequestId',
  );
  return { ...attempt, sessionId: session.sessionId, checkoutUrl: session.checkoutUrl, expiresAt: session.expiresAt.getTime() };
}

/** An attempt may go out, with this transactionRequestId (the order's attempt number `sequence`). `previous` is restored should nothing be sent. */
export interface SendDecision {
  next: 'send';
  transactionRequestId: string;
  sequence: number;
  previous: OrderAttempt | undefined;
}

/** A checkout answers the order's open, unexpired hosted session for the order's amount again. */
export interface ReuseDecision {
  next: 'reuse';
  attempt: OrderAttempt;
  checkoutUrl: string;
  expiresAt: number;
}

/** Nothing goes out: the order is paid, or its last attempt's outcome is not known yet. */
export type HoldDecision = Extract<OrderRefusal, { refused: 'already-paid' | 'pending' }>;

/**
 * What a payment of each kind does next for an order, decided under its
 * lock from the order's current attempt: send, or send nothing; a checkout
 * may also answer its session again, a wallet payment never.
 */
export interface OrderDecisions {
  hosted: SendDecision | ReuseDecision | HoldDecision;
  wallet: SendDecision | HoldDecision;
}

/** The order as the guard weighs it: what it is to be charged, from the merchant's server. */
export interface OrderCharge {
  referenceOrderId: string;
  /** Payable total, minor units. */
  amount: number;
  currency: string;
}

export function orderCharge(order: MerchantOrder): OrderCharge {
  return { referenceOrderId: order.referenceOrderId, amount: payableTotal(order.amount), currency: order.amount.priceCurrency };
}

/** Whether the attempt was made for this charge; one recorded before attempts kept their amount counts as the order's. */
function isFor(attempt: OrderAttempt, charge: OrderCharge): boolean {
  return (attempt.amount ?? charge.amount) === charge.amount && (attempt.currency ?? charge.currency) === charge.currency;
}

/**
 * Brings the order's attempt up to date where the service must be asked
 * first: a pending one is queried; an open hosted session is ended before it
 * is replaced (a wallet payment, a checkout once it expired or once the
 * order's amount changed), so that it can no longer charge the order too. A
 * session whose creation answer was lost is named again and ended the same way.
 */
async function upToDate(deps: OrderGuardDeps, attempt: OrderAttempt, kind: OrderAttemptKind, charge: OrderCharge): Promise<CheckedAttempt> {
  if (isFinalState(attempt.state)) return { attempt };
  const reusable = (candidate: OrderAttempt) =>
    kind === 'hosted' && isFor(candidate, charge) && (candidate.state === 'pending' || (candidate.expiresAt !== undefined && deps.clock.now() < candidate.expiresAt));
  if (attempt.state === 'open') return reusable(attempt) ? { attempt } : closeHostedAttempt(deps, attempt);
  const checked = await checkAttempt(deps, attempt);
  const lostSession = attempt.kind === 'hosted' && attempt.sessionId === undefined && checked.details !== undefined && checked.attempt.state === 'pending';
  if (!lostSession || reusable(checked.attempt)) return checked;
  const recovered = await recoverLostSession(deps, checked.attempt);
  return recovered === undefined ? checked : closeHostedAttempt(deps, recovered);
}

async function nextSequence(deps: OrderGuardDeps, attempt: OrderAttempt): Promise<number> {
  const sequence = attempt.sequence ?? (await deps.requestIds.sequenceOf(attempt.referenceOrderId, attempt.transactionRequestId));
  // An attempt recorded before ids were derived had a random one: the order's derived ids start afresh.
  return sequence === undefined ? 0 : sequence + 1;
}

/** The decision to send the order's `sequence`th derived id: it decides, the caller sends. */
async function sendDecision(deps: OrderGuardDeps, referenceOrderId: string, sequence: number, previous: OrderAttempt | undefined): Promise<SendDecision> {
  return { next: 'send', transactionRequestId: await deps.requestIds.idOf(referenceOrderId, sequence), sequence, previous };
}

/**
 * The decision for a `kind` payment of the order, under its lock.
 * - No attempt recorded: the order's first derived id, so that an attempt
 *   whose record was lost is answered by the service, not made again.
 * - After a `pending` attempt the service is asked first: `S` is answered as
 *   paid, `I` and `P` stay pending, and only `F` and `C` let the order's next
 *   id go out.
 * - An attempt the service does not know (yet) whose request may still reach
 *   it is never replaced: the order's next payment, of either kind, goes out
 *   under that same id (the service runs one request per id and refuses one
 *   of another operation), and only for the amount it was made for.
 */
export async function decideNextAttempt<K extends OrderAttemptKind>(deps: OrderGuardDeps, charge: OrderCharge, kind: K): Promise<OrderDecisions[K]> {
  const { referenceOrderId } = charge;
  const stored = await deps.store.get(referenceOrderId);
  if (stored === undefined) return sendDecision(deps, referenceOrderId, 0, undefined);
  const { attempt, inFlight } = await upToDate(deps, stored, kind, charge);
  if (inFlight === true) {
    if (isFor(attempt, charge)) {
      const sequence = attempt.sequence ?? (await deps.requestIds.sequenceOf(referenceOrderId, attempt.transactionRequestId)) ?? 0;
      return { next: 'send', transactionRequestId: attempt.transactionRequestId, sequence, previous: attempt };
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((inFlightUntil(deps, attempt) - deps.clock.now()) / 1000));
    return { refused: 'pending', retryAfterSeconds };
  }
  if (attempt.state === 'failed' || attempt.state === 'closed') return sendDecision(deps, referenceOrderId, await nextSequence(deps, attempt), attempt);
  if (attempt.state === 'succeeded') return { refused: 'already-paid', attempt };
  return UNSETTLED[kind](deps, attempt, charge);
}

const PENDING: HoldDecision = { refused: 'pending', retryAfterSeconds: PAYMENT_PENDING_RETRY_AFTER_SECONDS };

/** The decision on an attempt still open or pending (and no longer in flight), by the kind of payment asked for. */
const UNSETTLED: { [K in OrderAttemptKind]: (deps: OrderGuardDeps, attempt: OrderAttempt, charge: OrderCharge) => OrderDecisions[K] } = {
  hosted(deps, attempt, charge) {
    const { checkoutUrl, expiresAt } = attempt;
    if (attempt.state === 'open' && checkoutUrl !== undefined && expiresAt !== undefined && deps.clock.now() < expiresAt) {
      return { next: 'reuse', attempt, checkoutUrl, expiresAt };
    }
    // A session created whose answer was lost: asked for again under its id, the service answers that same session.
    if (attempt.kind === 'hosted' && attempt.state === 'pending' && isFor(attempt, charge)) {
      return { next: 'send', transactionRequestId: attempt.transactionRequestId, sequence: attempt.sequence ?? 0, previous: attempt };
    }
    return PENDING;
  },
  wallet: () => PENDING,
};

/** The fields a call's result sets on its attempt. */
export type AttemptOutcome = { state: OrderAttemptState } & Partial<Pick<OrderAttempt, 'sessionId' | 'checkoutUrl' | 'expiresAt' | 'transactionId'>>;

/** Builds the service request of a payment for the transactionRequestId the guard chose. */
export type RequestFor<Input> = (transactionRequestId: string) => Input;

/** How an attempt goes out: its request, the call that sends it, and what the call's result sets on the attempt. */
export interface AttemptCall<Input, Result> {
  request: RequestFor<Input>;
  send: (input: Input) => Promise<Result>;
  outcomeOf: (result: Result) => AttemptOutcome;
}

/**
 * Sends a new attempt: recorded `pending` under its transactionRequestId
 * before the call goes out (a store failure here is a 503 and nothing is
 * sent), then updated with the call's outcome. A call that throws leaves the
 * attempt pending, since the service may have received it; only a request
 * refused before sending (PaymentValidationError) gives the order back its
 * previous attempt. Recording the outcome is best effort: an attempt left
 * pending is asked about by the next request, never paid twice.
 */
export async function sendAttempt<Input, Result>(
  deps: OrderGuardDeps,
  decision: SendDecision,
  attempt: { charge: OrderCharge; kind: OrderAttemptKind },
  call: AttemptCall<Input, Result>,
): Promise<Result> {
  const { charge, kind } = attempt;
  // Built before the attempt is recorded: a merchant's URL function that throws leaves the order as it was.
  const input = call.request(decision.transactionRequestId);
  const now = deps.clock.now();
  const sent: OrderAttempt = {
    referenceOrderId: charge.referenceOrderId,
    kind,
    transactionRequestId: decision.transactionRequestId,
    sequence: decision.sequence,
    state: 'pending',
    amount: charge.amount,
    currency: charge.currency,
    // A request reused from an earlier attempt may reach the service as late as that one could.
    inFlightUntil: Math.max(now + deps.lateArrivalMs, decision.previous?.transactionRequestId === decision.transactionRequestId ? (decision.previous.inFlightUntil ?? 0) : 0),
    updatedAt: now,
  };
  await deps.store.put(sent, deps.attemptTtlMs);
  let result: Result;
  try {
    result = await call.send(input);
  } catch (error) {
    if (error instanceof PaymentValidationError) await restore(deps, decision.previous, charge.referenceOrderId);
    throw error;
  }
  try {
    await deps.store.put({ ...sent, ...call.outcomeOf(result), updatedAt: deps.clock.now() }, deps.attemptTtlMs);
  } catch (error) {
    deps.logger.warn(
      { referenceOrderId: charge.referenceOrderId, transactionRequestId: sent.transactionRequestId, err: error },
      'order attempt store: the outcome of a payment call could not be recorded; the attempt stays pending and the next request asks the service',
    );
  }
  return result;
}

async function restore(deps: OrderGuardDeps, previous: OrderAttempt | undefined, referenceOrderId: string): Promise<void> {
  try {
    if (previous) await deps.store.put(previous, deps.attemptTtlMs);
    else await deps.store.delete(referenceOrderId);
  } catch (error) {
    // Left pending: the next request asks the service, finds nothing, and goes on.
    deps.logger.warn({ referenceOrderId, err: error }, 'order attempt store: an attempt refused before sending could not be undone');
  }
}
