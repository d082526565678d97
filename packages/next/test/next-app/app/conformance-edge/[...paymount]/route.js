import { paymentRouteHandlers } from '@paymount/next';
import { remoteRouteOptions } from '../../../conformance-remote-app.mjs';

// The conformance suite on the edge runtime (test/conformance-edge.test.ts): served by `next start`, which runs
// edge routes apart from the test process, so the suite's options arrive as a description in PAYMOUNT_CONFORMANCE
// and their functions are calls back to the suite (tools/conformance/remote-app.mjs).
export const runtime = 'edge';

let origin = '';
/** @type {ReturnType<typeof remoteRouteOptions> | undefined} */
let remote;

const handlers = paymentRouteHandlers(() => {
  const description = process.env.PAYMOUNT_CONFORMANCE;
  if (!description) throw new Error('no PAYMOUNT_CONFORMANCE: this route serves only the edge conformance test');
  remote = remoteRouteOptions(JSON.parse(description), () => origin);
  return remote.options;
});

/** Answers once what the routes logged has reached the suite, as the suite's other apps do. */
const settled = (handler) => async (request, context) => {
  origin = new URL(request.url).origin;
  const response = await handler(request, context);
  await remote?.settled();
  return response;
};

export const GET = settled(handlers.GET);
export const POST = settled(handlers.POST);
export const HEAD = settled(handlers.HEAD);
