// The few shapes of the Workers runtime these stores use, written structurally so that the package's types need
// neither @cloudflare/workers-types nor wrangler's generated ones: both of those satisfy them.

/** A row cursor of the object's SQLite storage. */
export interface SqlCursor<T> {
  toArray(): T[];
}

/** `ctx.storage.sql` of a SQLite-backed Durable Object. */
export interface SqlStorage {
  exec<T = Record<string, string | number | null>>(query: string, ...bindings: unknown[]): SqlCursor<T>;
}

/** `ctx.storage` of a SQLite-backed Durable Object (a `new_sqlite_classes` migration). */
export interface DurableObjectStorage {
  sql: SqlStorage;
  transactionSync<T>(closure: () => T): T;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
  deleteAll(): Promise<void>;
}

/** A prepared D1 statement: what the handler hands over to run in the batch that marks its event handled. */
export interface D1PreparedStatement {
  bind(...values: unknown[]): D1PreparedStatement;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  run(): Promise<unknown>;
  all<T = Record<string, unknown>>(): Promise<{ results: T[] }>;
}

/** A D1 database binding (`env.DB`). */
export interface D1Database {
  prepare(query: string): D1PreparedStatement;
  batch(statements: D1PreparedStatement[]): Promise<unknown[]>;
}
