import { packageTests, TYPE_TESTS } from '../../tools/vitest.shared';

// Hooks start PostgreSQL servers and PGlite, which opens in seconds and, with both cores busy, in tens of
// seconds (a 30 s hook limit was passed in a loaded CI run): the limits leave them that.
export default packageTests({ typecheck: TYPE_TESTS, hookTimeout: 180_000 });
