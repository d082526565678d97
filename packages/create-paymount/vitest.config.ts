import { packageTests } from '../../tools/vitest.shared';

// The CLI's own tests. Every template's proof is the test:templates task (vitest.templates.config.ts).
export default packageTests({ include: ['test/*.test.ts'] });
