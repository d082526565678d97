import { PaymentStoreUnavailableError, type OrderAttempt, type OrderAttemptStore, type OrderAttemptUpdate } from '@paymount/core';
import { isFinalState, orderAttemptSchema } from '@paymount/core/stores';
import type { Row } from './database';
import { leaseEnd, WITHOUT_FLUSH, type StoreLink } from './store-link';

/** Each OrderAttempt field's column in `<prefix>order_attempts`. */
const COLUMNS = {
  referenceOrderId: 'reference_order_id',
  kind: 'kind',
  transactionRequestId: 'transaction_request_id',
  sequence: 'sequence',
  state: 'state',
  amount: 'amount',
  currency: 'currency',
  inFlightUntil: 'in_flight_until',
  sessionId: 'session_id',
  checkoutUrl: 'checkout_url',
  expiresAt: 'session_expires_at',
  transactionId: 'transaction_id',
  handledState: 'handled_state',
  updatedAt: 'updated_at',
} as const satisfies Record<keyof OrderAttempt, string>;

type Field = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as Field[];
/** Read back as numbers: drivers give `bigint` columns as strings. */
const NUMBER_FIELDS = new Set<Field>(['sequence', 'amount', 'inFlightUntil', 'expiresAt', 'updatedAt']);
const SELECTED = FIELDS.map((field) => COLUMNS[field]).join(', ');
const PLACEHOLDERS = FIELDS.map((_, index) => `$${index + 1}`).join(', ');
const REPLACED = FIELDS.map((field) => `${COLUMNS[field]} = excluded.${COLUMNS[field]}`).join(', ');

/**
 * An OrderAttemptStore in PostgreSQL, shared by every app instance on the
 * database.
 *
 * - `<prefix>order_locks`: one row per locked order, with the holder's random
 *   token and a lease; taken over once the lease lapses (a dead instance's),
 *   freed only by the token's holder.
 * - `<prefix>order_attempts`: the current attempt, one column per field,
 *   replaced whole by `put` and changed by `settle` in one conditional UPDATE
 *   (core's settledAttempt rule), so concurrent changes never interleave.
 *   Unsettled attempts are found through a partial index, for reconciliation.
 *
 * Rows outlive an app restart and a database restart; what an attempt or a
 * lock's TTL ends is the database's clock. When the database cannot be used,
 * every operation throws PaymentStoreUnavailableError (the payment routes
 * answer 503 and send nothing).
 */
export class PostgresOrderAttemptStore implements OrderAttemptStore {
  constructor(private readonly link: StoreLink) {}

  private get attempts(): string {
    return this.link.names.orderAttempts;
  }

  private get locks(): string {
    return this.link.names.orderLocks;
  }

  async lock(referenceOrderId: string, ttlMs: number): Promise<string | undefined> {
    const token = crypto.randomUUID();
    const { rows } = await this.link.run('lock', (db) =>
      db.query(
        `INSERT INTO ${this.locks} AS l (reference_order_id, token, expires_at) VALUES ($1, $2, ${leaseEnd(3)})
         ON CONFLICT (reference_order_id) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
         WHERE l.expires_at <= clock_timestamp()
         RETURNING token`,
        [referenceOrderId, token, ttlMs],
      ),
    );
    this.link.purgeNowAndThen(this.locks, 'reference_order_id');
    return rows.length === 0 ? undefined : token;
  }

  /** Not flushed before it answers: a lock a server crash brings back lapses with its lease, as one that could not be freed does. */
  async unlock(referenceOrderId: string, token: string): Promise<void> {
    await this.link.run('unlock', (db) =>
      db.query(`DELETE FROM ${this.locks} WHERE reference_order_id = $1 AND token = $2 AND ${WITHOUT_FLUSH}`, [referenceOrderId, token]),
    );
  }

  async get(referenceOrderId: string): Promise<OrderAttempt | undefined> {
    const { rows } = await this.link.run('get', (db) =>
      db.query(`SELECT ${SELECTED} FROM ${this.attempts} WHERE reference_order_id = $1 AND expires_at > clock_timestamp()`, [referenceOrderId]),
    );
    return rows[0] === undefined ? undefined : this.attemptOf(rows[0]);
  }

  /**
   * Flushed before it answers, as an attempt must be before its request is
   * sent; except the outcome of the request the stored attempt already
   * records as pending and in flight until the same time: lost in a server
   * crash, that record is left, and the next request asks the service.
   */
  async put(attempt: OrderAttempt, ttlMs: number): Promise<void> {
    const values = FIELDS.map((field) => attempt[field] ?? null);
    await this.link.run('put', (db) =>
      db.query(
        `INSERT INTO ${this.attempts} AS a (${SELECTED}, expires_at) VALUES (${PLACEHOLDERS}, ${leaseEnd(FIELDS.length + 1)})
         ON CONFLICT (reference_order_id) DO UPDATE SET ${REPLACED}, expires_at = excluded.expires_at
         WHERE CASE WHEN a.state = 'pending' AND a.transaction_request_id = excluded.transaction_request_id
                     AND a.in_flight_until IS NOT DISTINCT FROM excluded.in_flight_until
                   THEN ${WITHOUT_FLUSH} ELSE true END`,
        [...values, ttlMs],
      ),
    );
    this.link.purgeNowAndThen(this.attempts, 'reference_order_id');
  }

  async delete(referenceOrderId: string): Promise<void> {
    await this.link.run('delete', (db) => db.query(`DELETE FROM ${this.attempts} WHERE reference_order_id = $1`, [referenceOrderId]));
  }

  /**
   * Core's settledAttempt in one statement: only the current, unexpired
   * attempt, and never away from `succeeded`. Not flushed before it answers:
   * a settle records what the service said or that handlers ran (whose dedupe
   * mark was flushed with their transaction), so one lost in a server crash
   * leaves the attempt as it was, and the next request or reconciliation asks
   * the service again.
   */
  async settle(referenceOrderId: string, transactionRequestId: string, update: OrderAttemptUpdate, ttlMs: number): Promise<boolean> {
    const handled = update.handled === true && isFinalState(update.state);
    const { rows } = await this.link.run('settle', (db) =>
      db.query(
        `UPDATE ${this.attempts}
         SET state = $3::text, updated_at = $6, transaction_id = COALESCE($4::text, transaction_id),
             handled_state = CASE WHEN $5::boolean THEN $3::text ELSE handled_state END, expires_at = ${leaseEnd(7)}
         WHERE reference_order_id = $1 AND transaction_request_id = $2 AND expires_at > clock_timestamp()
           AND NOT (state = 'succeeded' AND $3::text <> 'succeeded') AND ${WITHOUT_FLUSH}
         RETURNING reference_order_id`,
        [referenceOrderId, transactionRequestId, update.state, update.transactionId ?? null, handled, update.updatedAt, ttlMs],
      ),
    );
    return rows.length > 0;
  }

  async unsettled({ changedBefore, limit }: { changedBefore: number; limit: number }): Promise<OrderAttempt[]> {
    const { rows } = await this.link.run('unsettled', (db) =>
      db.query(
        `SELECT ${SELECTED} FROM ${this.attempts}
         WHERE handled_state IS DISTINCT FROM state AND updated_at <= $1 AND expires_at > clock_timestamp()
         ORDER BY updated_at, reference_order_id
         LIMIT $2`,
        [changedBefore, limit],
      ),
    );
    return rows.map((row) => this.attemptOf(row));
  }

  private attemptOf(row: Row): OrderAttempt {
    const fields = Object.fromEntries(
      FIELDS.flatMap((field) => {
        const value = row[COLUMNS[field]];
        if (value === null || value === undefined) return [];
        return [[field, NUMBER_FIELDS.has(field) ? Number(value) : value]];
      }),
    );
    const parsed = orderAttemptSchema.safeParse(fields);
    if (!parsed.success) {
      // Refusing is safe (nothing is charged); trusting an unreadable attempt might not be.
      throw new PaymentStoreUnavailableError(
        `PostgreSQL holds an unreadable attempt for order ${String(row.reference_order_id)} in ${this.attempts}; delete its row once checked.`,
      );
    }
    return parsed.data as OrderAttempt;
  }
}
