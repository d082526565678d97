import { type PaymentEventContext, PaymentValidationError } from '@paymount/core';
import { inEventCommit } from '@paymount/core/stores';
import type { ObjectWrite } from './event-state';
import type { D1PreparedStatement } from './workers-types';

/**
 * A handler's writes that commit with its event's handled mark (the handler's
 * `ctx.db` with durableObjectStores()): D1 statements, run in one
 * `db.batch()` with the mark, and writes to the event's own Durable Object,
 * applied in one storage transaction with the mark there. Nothing is written
 * while the handler runs: when it throws, nothing of it is committed.
 */
export class EventCommit {
  readonly statements: D1PreparedStatement[] = [];
  readonly writes: ObjectWrite[] = [];

  constructor(
    /** The event's dedupe key: its object is `event:<key>`, whose writes `effectsOf(key)` reads back. */
    readonly eventKey: string,
    private readonly hasD1: boolean,
  ) {}

  /** D1 statements of the `d1` option's database, run in the batch that marks the event handled. */
  d1(...statements: D1PreparedStatement[]): void {
    if (!this.hasD1) {
      throw new PaymentValidationError('durableObjectStores() options', [
        {
          path: 'd1',
          rule: 'the database whose statements a handler commits with its event',
          message: "is missing, but this handler writes to D1 with its event's mark: pass durableObjectStores(env.PAYMOUNT_STATE, { d1: env.DB })",
        },
      ]);
    }
    this.statements.push(...statements);
  }

  /** Puts a JSON value under `name` in the event's object, committed with the mark. */
  put(name: string, value: unknown): void {
    this.writes.push({ op: 'put', name, value });
  }

  /** Deletes `name` from the event's object, committed with the mark. */
  delete(name: string): void {
    this.writes.push({ op: 'delete', name });
  }
}

/** A handler's context when its writes commit with the event's mark: `db` is the EventCommit. */
export interface DurableObjectEventContext<TContext = unknown> extends PaymentEventContext<TContext> {
  db: EventCommit;
}

/**
 * Types a handler that writes through `ctx.db` (an EventCommit): its writes
 * and its event's handled mark commit together, or not at all when it throws.
 * Run with another store, it throws rather than write outside that commit.
 */
export const withEventCommit = inEventCommit({
  is: (db: unknown): db is EventCommit => db instanceof EventCommit,
  commit: 'commit of D1 statements and event-object writes',
  store: 'durableObjectStores(env.PAYMOUNT_STATE).idempotency',
});
