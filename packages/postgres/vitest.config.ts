import { POSTGRES_START_LIMIT_MS } from '../../tools/postgres-server';
import { packageTests } from '../../tools/vitest.shared';

// Hooks start PostgreSQL servers and PGlite, which take tens of seconds with both cores busy.
export default packageTests({ hookTimeout: POSTGRES_START_LIMIT_MS });
