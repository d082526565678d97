import { defineEventHandler, getRequestURL } from 'h3';
import { paymentHandler, type PaymentHandlerOptions } from '@paymount/nuxt';
import { remoteRouteOptions } from '../../conformance-remote-app.mjs';

/**
 * The payment routes on the options the test process describes: `node .output/server/index.mjs` runs apart from it,
 * so they arrive as a description in PAYMOUNT_CONFORMANCE and their functions are calls back to the test
 * (tools/conformance/remote-app.mjs). `adapt` changes them for one route. Answers once what the routes logged
 * has reached the test, as the conformance suite's other apps do.
 */
export function remotePaymentHandler(adapt: (options: PaymentHandlerOptions) => PaymentHandlerOptions = (options) => options) {
  let origin = '';
  let remote: ReturnType<typeof remoteRouteOptions> | undefined;
  const payments = paymentHandler(() => {
    const description = process.env.PAYMOUNT_CONFORMANCE;
    if (!description) throw new Error('no PAYMOUNT_CONFORMANCE: this route serves only the tests');
    remote = remoteRouteOptions(JSON.parse(description), () => origin);
    return adapt(remote.options as PaymentHandlerOptions);
  });
  return defineEventHandler(async (event) => {
    origin = getRequestURL(event).origin;
    try {
      return await payments(event);
    } finally {
      await remote?.settled();
    }
  });
}
