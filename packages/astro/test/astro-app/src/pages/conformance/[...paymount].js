import { paymentEndpoints } from '@paymount/astro';
import { remoteRouteOptions } from '../../../conformance-remote-app.mjs';

// The conformance suite (test/conformance.test.ts) against this app served by `node dist/server/entry.mjs`, a process
// of its own: the suite's options arrive as a description in PAYMOUNT_CONFORMANCE and their functions are calls back
// to the suite (tools/conformance/remote-app.mjs).
export const prerender = false;

let origin = '';
/** @type {ReturnType<typeof remoteRouteOptions> | undefined} */
let remote;

const endpoints = paymentEndpoints(() => {
  const description = process.env.PAYMOUNT_CONFORMANCE;
  if (!description) throw new Error('no PAYMOUNT_CONFORMANCE: this route serves only the conformance test');
  remote = remoteRouteOptions(JSON.parse(description), () => origin);
  return remote.options;
});

/** Answers once what the routes logged has reached the suite, as the suite's other apps do. */
const settled = (endpoint) => async (context) => {
  origin = context.url.origin;
  const response = await endpoint(context);
  await remote?.settled();
  return response;
};

export const GET = settled(endpoints.GET);
export const POST = settled(endpoints.POST);
export const HEAD = settled(endpoints.HEAD);
export const ALL = settled(endpoints.ALL);
