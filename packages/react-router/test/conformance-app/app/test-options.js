// The options the tests build in their own process (sandbox, orders, recording handlers), which imports this app's
// server build in process and puts them here first: every payment route of this app is made from them.
export const testOptions = () => globalThis[Symbol.for('@paymount/react-router.test.options')];
