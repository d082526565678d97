import { packageTests } from '../../tools/vitest.shared';

// One file at a time: each drives thousands of requests and must not compete
// with another for the two cores. --expose-gc lets the hostile-input suite
// measure the heap after a full collection.
export default packageTests({
  fileParallelism: false,
  execArgv: ['--expose-gc'],
  testTimeout: 120_000,
  hookTimeout: 60_000,
});
