import { packageTests } from '../../tools/vitest.shared';

/**
 * The templates' proofs (test/templates) and the installs by other managers and on PostgreSQL
 * (test/installs): turbo's test:templates task, a lane of its own beside every package's tests, so
 * they start as soon as the packages they pack are built rather than after create-paymount's own
 * tests. The packages are packed once for all of them (test/global-setup.ts).
 */
export default packageTests({ include: ['test/templates/*.test.ts', 'test/installs/*.test.ts'], globalSetup: ['test/global-setup.ts'], fileParallelism: false });
