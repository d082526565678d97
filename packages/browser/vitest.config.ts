import { packageTests } from '../../tools/vitest.shared';

// One browser at a time: the machines running this have two cores.
export default packageTests({ fileParallelism: false });
