import { packageTests } from '../../tools/vitest.shared';

// Inside Deno (`npm run test:deno`): the stores on Deno's own KV.
export default packageTests({ include: ['test/deno/**/*.test.ts'] });
