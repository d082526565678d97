import { packageTests } from '../../tools/vitest.shared';

// The CLI's own tests; the templates' proofs are the test:templates task (vitest.templates.config.ts).
export default packageTests({ include: ['test/*.test.ts'] });
