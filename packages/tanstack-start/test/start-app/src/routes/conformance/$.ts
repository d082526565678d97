import { createServerFileRoute } from '@tanstack/react-start/server';
import { paymentHandlers, type PaymentHandler } from '@paymount/tanstack-start';
import { remoteRouteOptions } from '../../../../../../../tools/conformance/remote-app.mjs';

// The conformance suite runs in the test process, this built app under `node .output/server/index.mjs`:
// the suite's options arrive as a description in PAYMOUNT_CONFORMANCE, their functions as calls back to it.
let origin = '';
let remote: ReturnType<typeof remoteRouteOptions> | undefined;

const { methods } = paymentHandlers(() => {
  const description = process.env['PAYMOUNT_CONFORMANCE'];
  if (!description) throw new Error('no PAYMOUNT_CONFORMANCE: this route serves only the conformance test');
  remote = remoteRouteOptions(JSON.parse(description), () => origin);
  return remote.options;
});

/** Answers once what the routes logged has reached the suite, as the suite's other apps do. */
const settled =
  (handler: PaymentHandler): PaymentHandler =>
  async (handlerContext) => {
    origin = new URL(handlerContext.request.url).origin;
    const response = await handler(handlerContext);
    await remote?.settled();
    return response;
  };

export const ServerRoute = createServerFileRoute('/conformance/$').methods({
  GET: settled(methods.GET),
  HEAD: settled(methods.HEAD),
  POST: settled(methods.POST),
  PUT: settled(methods.PUT),
  PATCH: settled(methods.PATCH),
  DELETE: settled(methods.DELETE),
  OPTIONS: settled(methods.OPTIONS),
});
