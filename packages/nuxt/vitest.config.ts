import { packageTests, TYPE_TESTS } from '../../tools/vitest.shared';

export default packageTests({ typecheck: TYPE_TESTS, globalSetup: ['test/global-setup.ts'] });
