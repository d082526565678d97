import { paymentRoute } from '@paymount/react-router';

// The conformance suite builds its options (sandbox, orders, recording handlers) in the test process,
// which imports this app's server build in process and puts them here first.
const OPTIONS = Symbol.for('@paymount/react-router.test.conformance-options');

const payments = paymentRoute(globalThis[OPTIONS]);
export const loader = payments.loader;
export const action = payments.action;
