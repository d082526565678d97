import { packageTests } from '../../tools/vitest.shared';

// The stores run in workerd (miniflare), one test file at a time: each starts its own workerd.
export default packageTests({ fileParallelism: false });
