import { packageTests } from '../../tools/vitest.shared';

// One runtime at a time: each file starts a runtime process (or workerd) that
// serves requests and calls the sandbox, and two cores are shared.
export default packageTests({
  fileParallelism: false,
});
