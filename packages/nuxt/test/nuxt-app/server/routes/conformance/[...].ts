import { getRequestURL, defineEventHandler } from 'h3';
import { paymentHandler } from '@paymount/nuxt';
import { remoteRouteOptions } from '../../../conformance-remote-app.mjs';

// The conformance suite (test/conformance.test.ts): `node .output/server/index.mjs` runs apart from the test
// process, so the suite's options arrive as a description in PAYMOUNT_CONFORMANCE and their functions are calls
// back to the suite (tools/conformance/remote-app.mjs).
let origin = '';
let remote: ReturnType<typeof remoteRouteOptions> | undefined;

const payments = paymentHandler(() => {
  const description = process.env.PAYMOUNT_CONFORMANCE;
  if (!description) throw new Error('no PAYMOUNT_CONFORMANCE: this route serves only the conformance test');
  remote = remoteRouteOptions(JSON.parse(description), () => origin);
  return remote.options;
});

// Answers once what the routes logged has reached the suite, as the suite's other apps do.
export default defineEventHandler(async (event) => {
  origin = getRequestURL(event).origin;
  try {
    return await payments(event);
  } finally {
    await remote?.settled();
  }
});
