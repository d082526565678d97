import type { Context, Env } from 'hono';
import type { BlankEnv } from 'hono/types';
import { createPaymentRoutes, createRedactingLogger, PaymentErrorCode, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';

/**
 * Makes the payment route options from the first request's `Context`: on
 * Cloudflare Workers, `(c) => options` reading the secrets in `c.env`, which
 * exist only once a request arrives. May be async.
 */
export type PaymentRoutesOptionsFactory<E extends Env = BlankEnv> = (c: Context<E>) => PaymentRoutesOptions<Context<E>> | Promise<PaymentRoutesOptions<Context<E>>>;

// The options' logger is unknown when they could not be made: the console, redacted, as every adapter's default.
const log = createRedactingLogger();

/** What fixes options that could not be made, in a Worker's words (where the factory form is for). */
const OPTIONS_FIX =
  'fix what the error names; on Cloudflare Workers a setting read from `c.env` is a secret or variable the Worker lacks: `npx wrangler secret put NAME` (`.dev.vars` under `wrangler dev`). The next request calls the options function again';

/**
 * The core routes for a request: made from `factory`'s options on the first
 * call (concurrent first calls share them), then kept. A factory that threw or
 * gave invalid options is called again on the next request.
 */
export function routesOnFirstRequest<E extends Env>(factory: PaymentRoutesOptionsFactory<E>): (c: Context<E>) => Promise<PaymentRoutes<Context<E>>> {
  let routes: Promise<PaymentRoutes<Context<E>>> | undefined;
  return (c) => {
    if (routes) return routes;
    const made = (async () => createPaymentRoutes(await factory(c)))();
    made.catch(() => {
      if (routes === made) routes = undefined;
    });
    return (routes = made);
  };
}

/** The answer of every payment route while its options cannot be made: a 500 without detail (the service retries a webhook), the cause in the log. */
export function optionsUnavailable(error: unknown): Response {
  log.error({ err: error, fix: OPTIONS_FIX }, 'paymount payment route options could not be made by paymentRoutes((c) => options), so no payment route can answer');
  const body = { error: { code: PaymentErrorCode.INTERNAL_ERROR, message: 'An unexpected error occurred.' } };
  return Response.json(body, { status: 500, headers: { 'cache-control': 'no-store' } });
}
