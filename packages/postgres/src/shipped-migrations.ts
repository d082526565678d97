import stores from '../migrations/0001_stores.sql?raw';

/**
 * The SQL files of `migrations/`, by name, in the order migrate() applies
 * them: bundled as text, so migrate() reads no file system (a Worker or an
 * edge function has none). A new file is added here too; a test compares
 * this list with the folder.
 */
export const SHIPPED_MIGRATIONS: ReadonlyArray<{ name: string; sql: string }> = [{ name: '0001_stores', sql: stores }];
