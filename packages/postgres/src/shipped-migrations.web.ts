import stores from '../migrations/0001_stores.sql?raw';
import type { ShippedMigration } from './shipped-migrations';

// The edge build's twin of shipped-migrations.ts: a Worker or an edge function has no file system, so the
// SQL files are bundled as text. A new file is added here too; a test compares this list with the folder.

export const shippedMigrationFiles = (): ShippedMigration[] => [{ name: '0001_stores', sql: stores }];
