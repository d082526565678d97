/** A row as the driver gives it back. */
export type Row = Record<string, unknown>;

/**
 * What the stores (and a transactional handler) send SQL through: text with
 * `$1`, `$2`... placeholders and its parameters, answered with the rows.
 */
export interface PostgresQueryable {
  query<R extends Row = Row>(text: string, params?: readonly unknown[]): Promise<{ rows: R[] }>;
}

/**
 * A database the stores can use: queries, and transactions on one connection
 * (committed when `fn` resolves, rolled back when it throws). Made from a
 * driver by `fromPg`, `fromNeon`, `fromPostgresJs` or `fromPGlite`, or by hand for any
 * other (an ORM's pool, a test double).
 */
export interface PostgresDatabase extends PostgresQueryable {
  transaction<T>(fn: (tx: PostgresQueryable) => Promise<T>): Promise<T>;
}
