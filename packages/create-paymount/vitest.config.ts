import { packageTests } from '../../tools/vitest.shared';

// The templates' proof installs and starts whole apps: one file at a time on two cores.
export default packageTests({ fileParallelism: false });
