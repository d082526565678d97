import { randomBytes } from 'node:crypto';
import type { Environment } from './credentials';
import { TRANSACTION_ID_PREFIX } from './ledger';
import { OldestFirst } from './oldest-first';
import { ID_BYTES, maskedIdPair, unmaskHexId } from './random-id';
import type { CheckoutSessionBody } from './rules/checkout-session';

export const SESSION_LIFETIME_MS = 30 * 60_000;

const SESSION_ID_PREFIX = 'cs_';

export type SessionState = 'open' | 'paid' | 'failed' | 'cancelled' | 'expired';

export interface CloseReason {
  code: string;
  message: string;
}

export interface CheckoutSessionRecord {
  sessionId: string;
  environment: Environment;
  request: CheckoutSessionBody;
  createdAt: number;
  expiresAt: number;
  state: SessionState;
  /** The session's sale transaction from its creation on; its charge carries this id once paid. */
  transactionId: string;
  /** When the session stopped being payable (paid, failed, cancelled or expired). */
  closedAt?: number;
  /** Why a session closed unpaid. */
  closeReason?: CloseReason;
}

/**
 * Hosted checkout sessions. A session is usable for 30 minutes of service time
 * from its creation; it then moves to `expired` when next looked at or swept
 * by `expireDue`, whichever comes first.
 * Bounded: past `maxSessions` the oldest session is forgotten.
 *
 * One map, by sessionId: a session's transactionId is its sessionId's random
 * part masked with this store's own random key, so either id finds it with
 * one lookup. Whoever sees both ids of one session can unmask the others: no
 * sandbox id is a secret. Each index of a
 * store this large costs a cache-missing insert and delete per session
 * (about a µs of a create-session call). The session of a transactionRequestId
 * is found through the ledger's first result of that request
 * (transactions.ts), the index the idempotency rule already keeps: found while
 * the ledger remembers that request, as a repeat of it is answered.
 */
export class SessionStore {
  private readonly sessions = new Map<string, CheckoutSessionRecord>();
  private readonly creationOrder = new OldestFirst<CheckoutSessionRecord>();
  private readonly transactionMask = randomBytes(ID_BYTES);

  constructor(
    /** Told once about each session that closes unpaid, cancelled or expired (the sandbox then sends its `C` webhook). */
    private readonly onClose: (session: CheckoutSessionRecord) => void = () => {},
    private readonly maxSessions = 50_000,
  ) {}

  create(request: CheckoutSessionBody, environment: Environment, now: number): CheckoutSessionRecord {
    const [sessionId, transactionId] = maskedIdPair(SESSION_ID_PREFIX, TRANSACTION_ID_PREFIX, this.transactionMask);
    const session: CheckoutSessionRecord = {
      sessionId,
      environment,
      request,
      createdAt: now,
      expiresAt: now + SESSION_LIFETIME_MS,
      state: 'open',
      transactionId,
    };
    this.sessions.set(session.sessionId, session);
    this.creationOrder.push(session);
    if (this.sessions.size > this.maxSessions) {
      const oldest = this.creationOrder.shift();
      if (oldest !== undefined) this.sessions.delete(oldest.sessionId);
    }
    return session;
  }

  /** The session with its state brought up to `now`. */
  get(sessionId: string, now: number): CheckoutSessionRecord | undefined {
    return this.current(this.sessions.get(sessionId), now);
  }

  /** The session of `environment` whose sale transaction is `transactionId`, with its state brought up to `now`. */
  findByTransactionId(environment: Environment, transactionId: string, now: number): CheckoutSessionRecord | undefined {
    if (!transactionId.startsWith(TRANSACTION_ID_PREFIX)) return undefined;
    const sessionId = unmaskHexId(transactionId.slice(TRANSACTION_ID_PREFIX.length), this.transactionMask, SESSION_ID_PREFIX);
    const session = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    return session?.environment === environment ? this.current(session, now) : undefined;
  }

  /** Every session kept, oldest first, with their states brought up to `now`. */
  list(now: number): CheckoutSessionRecord[] {
    this.expireDue(now);
    return [...this.sessions.values()];
  }

  /** Moves every open session whose 30 minutes have passed to `expired`. */
  expireDue(now: number): void {
    for (const session of this.sessions.values()) this.expireIfDue(session, now);
  }

  /** Records the outcome of the session's one payment. */
  settle(session: CheckoutSessionRecord, paid: boolean, at: number): void {
    session.state = paid ? 'paid' : 'failed';
    session.closedAt = at;
  }

  /** Closes an open session unpaid and tells `onClose`; a session no longer open is left as it is. */
  close(session: CheckoutSessionRecord, state: 'cancelled' | 'expired', at: number, reason: CloseReason): void {
    if (session.state !== 'open') return;
    session.state = state;
    session.closedAt = at;
    session.closeReason = reason;
    this.onClose(session);
  }

  private current(session: CheckoutSessionRecord | undefined, now: number): CheckoutSessionRecord | undefined {
    if (session) this.expireIfDue(session, now);
    return session;
  }

  private expireIfDue(session: CheckoutSessionRecord, now: number): void {
    if (now < session.expiresAt) return;
    this.close(session, 'expired', session.expiresAt, { code: 'SESSION_EXPIRED', message: 'checkout session expired unpaid' });
  }
}
