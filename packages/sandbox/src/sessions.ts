import { randomUUID } from 'node:crypto';
import type { Environment } from './credentials';
import type { CheckoutSessionBody } from './rules/checkout-session';

export const SESSION_LIFETIME_MS = 30 * 60_000;

export type SessionState = 'open' | 'paid' | 'failed' | 'cancelled' | 'expired';

export interface CheckoutSessionRecord {
  sessionId: string;
  environment: Environment;
  request: CheckoutSessionBody;
  createdAt: number;
  expiresAt: number;
  state: SessionState;
  transactionId?: string;
}

/**
 * Hosted checkout sessions. A session is usable for 30 minutes of service time
 * from its creation; it then moves to `expired` when next looked at or swept
 * by `expireDue`, whichever comes first.
 * Bounded: past `maxSessions` the oldest session is forgotten.
 */
export class SessionStore {
  private readonly sessions = new Map<string, CheckoutSessionRecord>();

  constructor(
    /** Told once about each session that expires unpaid (the sandbox then sends its `C` webhook). */
    private readonly onExpire: (session: CheckoutSessionRecord) => void = () => {},
    private readonly maxSessions = 50_000,
  ) {}

  create(request: CheckoutSessionBody, environment: Environment, now: number): CheckoutSessionRecord {
    const session: CheckoutSessionRecord = {
      // randomUUID draws from a cached entropy pool: several times cheaper than a randomBytes call per session.
      sessionId: `cs_${randomUUID().replaceAll('-', '')}`,
      environment,
      request,
      createdAt: now,
      expiresAt: now + SESSION_LIFETIME_MS,
      state: 'open',
    };
    this.sessions.set(session.sessionId, session);
    if (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    return session;
  }

  /** The session with its state brought up to `now`. */
  get(sessionId: string, now: number): CheckoutSessionRecord | undefined {
    const session = this.sessions.get(sessionId);
    if (session) this.expireIfDue(session, now);
    return session;
  }

  /** Moves every open session whose 30 minutes have passed to `expired`. */
  expireDue(now: number): void {
    for (const session of this.sessions.values()) this.expireIfDue(session, now);
  }

  private expireIfDue(session: CheckoutSessionRecord, now: number): void {
    if (session.state !== 'open' || now < session.expiresAt) return;
    session.state = 'expired';
    this.onExpire(session);
  }
}
