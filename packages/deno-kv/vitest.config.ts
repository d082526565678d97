import { packageTests } from '../../tools/vitest.shared';

// On Node: the package's build and README, and the merchant app it starts in Deno. test/deno/ runs inside Deno (vitest.deno.config.ts).
export default packageTests({ include: ['test/*.test.ts'] });
