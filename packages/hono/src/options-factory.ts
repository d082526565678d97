import type { Context, Env } from 'hono';
import type { BlankEnv } from 'hono/types';
import type { PaymentRoutesOptions } from '@paymount/core';
import { optionsUnavailableResponse } from '@paymount/core/http';

/**
 * Makes the payment route options from the first request's `Context`: on
 * Cloudflare Workers, `(c) => options` reading the secrets in `c.env`, which
 * exist only once a request arrives. May be async.
 */
export type PaymentRoutesOptionsFactory<E extends Env = BlankEnv> = (c: Context<E>) => PaymentRoutesOptions<Context<E>> | Promise<PaymentRoutesOptions<Context<E>>>;

/** What fixes options that could not be made, in a Worker's words (where the factory form is for). */
const OPTIONS_FIX =
  'fix what the error names; on Cloudflare Workers a setting read from `c.env` is a secret or variable the Worker lacks: `npx wrangler secret put NAME` (`.dev.vars` under `wrangler dev`). The next request calls the options function again';

/** The answer of every payment route while `paymentApp((c) => options)` cannot make its options. */
export function optionsUnavailable(error: unknown): Response {
  return optionsUnavailableResponse(error, { madeBy: 'paymentApp((c) => options)', fix: OPTIONS_FIX });
}
