import { packageTests } from '../tools/vitest.shared';

// The tests read site/dist: the package's test script builds it first (npm run build:site).
export default packageTests({ fileParallelism: false });
