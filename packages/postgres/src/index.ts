export type { PostgresDatabase, PostgresQueryable, Row } from './database';
export { fromPg, fromPGlite, fromPostgresJs } from './drivers';
export type { PgClientLike, PgPoolLike, PGliteDatabaseLike, PGliteLike, PostgresJsLike, PostgresJsSqlLike } from './drivers';
export { migrate, type MigrateOptions } from './migrate';
export { DEFAULT_TABLE_PREFIX } from './table-names';
export { ClaimLostError, PostgresIdempotencyStore } from './postgres-idempotency-store';
export { PostgresOrderAttemptStore } from './postgres-order-attempt-store';
export { createPostgresStores, type PostgresStores, type PostgresStoresOptions } from './postgres-stores';
export { inTransaction, type PostgresEventContext } from './in-transaction';
