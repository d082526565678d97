import { packageTests } from '../../tools/vitest.shared';

// The CLI's own tests, and the proofs of the Express and Hono templates, one file at a time: they
// install and start whole apps. Every template's proof, these two included, is the test:templates
// task (vitest.templates.config.ts), which the root `npm test` leaves out while CI's time allows.
export default packageTests({
  include: ['test/*.test.ts', 'test/templates/express.test.ts', 'test/templates/hono.test.ts'],
  fileParallelism: false,
  globalSetup: ['test/global-setup.ts'],
});
