import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One SQL file of `migrations/`: its name without `.sql`, and its text. */
export interface ShippedMigration {
  name: string;
  sql: string;
}

/** The package's `migrations/` folder: beside `src/` and `dist/`. */
const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/** The SQL files of `migrations/`, in name order (the order migrate() applies them), read from the package folder. */
export const shippedMigrationFiles = (): ShippedMigration[] =>
  readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ name: file.replace(/\.sql$/, ''), sql: readFileSync(`${MIGRATIONS_DIR}${file}`, 'utf8') }));
