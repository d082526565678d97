import { paymentRouteHandlers } from '@paymount/next';

// The conformance suite builds its options (sandbox, orders, recording handlers) in the test process,
// which serves this app with Next's production server in process and hands them over here.
const OPTIONS = Symbol.for('@paymount/next.test.conformance-options');

export const { GET, POST, HEAD } = paymentRouteHandlers(() => {
  const options = globalThis[OPTIONS];
  if (!options) throw new Error('no conformance options: this route serves only the in-process conformance test');
  return options;
});
