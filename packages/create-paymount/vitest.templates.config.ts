import { packageTests } from '../../tools/vitest.shared';

/**
 * The templates' proofs (test/templates) and the installs by other managers and on PostgreSQL
 * (test/installs): turbo's test:templates task, run by the root `npm test` beside every other
 * package's tests (alone: `npm run test:templates`).
 * Two proofs at a time (the shared default), as each waits on installs, servers and Chromium: the
 * express and hono proofs took 423 s of wall time so against 510 s one after the other, for 111
 * against 104 CPU-s, on a machine with a load average of 20. The packages are packed once for all
 * of them (test/global-setup.ts).
 */
export default packageTests({ include: ['test/templates/*.test.ts', 'test/installs/*.test.ts'], globalSetup: ['test/global-setup.ts'] });
