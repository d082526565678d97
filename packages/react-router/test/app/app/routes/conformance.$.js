import { paymentRoute } from '@paymount/react-router';

// The conformance suite builds its options (sandbox, orders, recording handlers) in the test process,
// which imports this app's server build in process and puts them here first. Served otherwise
// (react-router-serve, for the README's routes), the route has none and answers 503.
const OPTIONS = Symbol.for('@paymount/react-router.test.conformance-options');

const options = globalThis[OPTIONS];
const payments = options && paymentRoute(options);
const unavailable = () => new Response('no conformance options', { status: 503 });

export const loader = (args) => (payments ? payments.loader(args) : unavailable());
export const action = (args) => (payments ? payments.action(args) : unavailable());
