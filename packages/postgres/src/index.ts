export type { PostgresDatabase, PostgresQueryable, Row } from './database';
export { fromNeon, fromPg, fromPGlite, fromPostgresJs } from './drivers';
export type { FromPgOptions, PgClientLike, PgPoolClientLike, PgPoolLike, PgQueryConfig, PGliteDatabaseLike, PGliteLike, PostgresJsLike, PostgresJsSqlLike } from './drivers';
export { lockPGliteFolder, type LockPGliteFolderOptions } from './pglite-folder-lock';
export { migrate, type MigrateOptions } from './migrate';
export { DEFAULT_TABLE_PREFIX, type TableLocation, type TableNames } from './table-names';
export { PostgresIdempotencyStore } from './postgres-idempotency-store';
// Re-exported where it was first published: it is core's, shared by every store with runHandled.
export { ClaimLostError } from '@paymount/core';
export { PostgresOrderAttemptStore } from './postgres-order-attempt-store';
export { createPostgresStores, type PostgresStores, type PostgresStoresOptions } from './postgres-stores';
export { inTransaction, type PostgresEventContext } from './in-transaction';
export type { StoreLink } from './store-link';
