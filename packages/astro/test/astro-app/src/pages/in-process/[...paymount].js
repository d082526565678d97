import { paymentEndpoints } from '@paymount/astro';

// The conformance suite's options hold functions (resolveOrder, recording handlers, a logger, telemetry): the test
// (test/conformance-in-process.test.ts) serves this build with @astrojs/node's standalone handler in its own process
// and hands them over here.
const OPTIONS = Symbol.for('@paymount/astro.test.conformance-options');

export const prerender = false;

export const { GET, POST, HEAD, ALL } = paymentEndpoints(() => {
  const options = globalThis[OPTIONS];
  if (!options) throw new Error('no conformance options: this route serves only the in-process conformance test');
  return options;
});
