// The Worker the contract suites run in (the workerd project of vitest.config.ts names it `main`): it exports the
// package's Durable Object class for the PAYMOUNT_STATE binding, as a merchant's Worker re-exports it.
export { PaymountState } from '../../src/index';
