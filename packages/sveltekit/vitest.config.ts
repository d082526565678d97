import { packageTests } from '../../tools/vitest.shared';

export default packageTests({ globalSetup: ['test/global-setup.ts'] });
