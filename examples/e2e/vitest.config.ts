import { packageTests } from '../../tools/vitest.shared';

// One browser per file, one file at a time: the machines running this have two cores.
// A journey may wait SETTLE_TIMEOUT_MS (60 s) for the shop more than once.
export default packageTests({ testTimeout: 180_000, fileParallelism: false });
