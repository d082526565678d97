import { packageTests } from '../../tools/vitest.shared';

// The templates' proofs install and start whole apps: one file at a time on two cores. The packages
// are packed once for all of them (test/global-setup.ts).
export default packageTests({ fileParallelism: false, globalSetup: ['test/global-setup.ts'] });
