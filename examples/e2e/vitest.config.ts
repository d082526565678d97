import { packageTests } from '../../tools/vitest.shared';

// One browser per file, one file at a time: the machines running this have two cores.
export default packageTests({ testTimeout: 60_000, hookTimeout: 60_000, fileParallelism: false });
