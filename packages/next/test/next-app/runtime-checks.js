import * as core from '@paymount/core';
import { paymentSettingsFromEnv } from '@paymount/next';
import { currencyChecks, payOnce } from './runtime-flows.mjs';

/**
 * Two steps of the flows every runtime runs (tests/runtimes/flows/flows.mjs, copied beside), on this route's runtime,
 * with the client settings the README's routes read: payments in currencies no runtime may accept, and a payment to
 * `refusedUrl`, where nothing listens. Body: `{ orders: { currency, refused }, tokens: { currency, refused }, refusedUrl }`.
 */
export async function runtimeChecks(request) {
  const { orders, tokens, refusedUrl } = await request.json();
  const { client } = paymentSettingsFromEnv();
  return Response.json({
    currency: await currencyChecks(core, client, orders.currency, tokens.currency),
    refused: await payOnce(core.createPaymentClient({ ...client, baseUrl: refusedUrl }), orders.refused, tokens.refused),
  });
}
