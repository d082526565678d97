import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { createPaymentRoutes, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { pathUnderMount, rawPathOf, toNeutralRequest, writeNeutralResponse } from '@paymount/core/http';

/**
 * What body parsers mounted before paymount leave on the request: the parsed
 * `body`, and the exact bytes when the app keeps them, as
 * `express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })` does.
 */
type ExpressRequest = IncomingMessage & { body?: unknown; rawBody?: unknown; originalUrl?: string; baseUrl?: string };

/** The bytes a parser kept, when they are bytes or text; anything else there is not a body paymount can trust. */
function keptRawBody(req: ExpressRequest): Uint8Array | string | undefined {
  // Read as unknown: another package's augmentation of IncomingMessage (e.g. rawBody: string) must not narrow the check away.
  const rawBody: unknown = req.rawBody;
  return rawBody instanceof Uint8Array || typeof rawBody === 'string' ? rawBody : undefined;
}

/** The handler options, with `resolveOrder` and the event handlers given the Express `Request` as `ctx.context`. */
export type PaymentRouterOptions = PaymentRoutesOptions<Request>;

/**
 * Express middleware serving the payment routes; mount it like a Router:
 * `app.use('/payments', paymentRouter(options))`. Typed against Node's own
 * request and response so one build serves Express 4 and Express 5.
 */
export interface PaymentRouter {
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  /** The core handlers behind the routes: `handlers.client`, `handlers.on(...)`, `handlers.close()`. */
  readonly handlers: PaymentRoutes<Request>;
}

export function paymentRouter(options: PaymentRouterOptions): PaymentRouter {
  const handlers = createPaymentRoutes(options);
  const serve = async (req: ExpressRequest, res: ServerResponse): Promise<boolean> => {
    // The path as sent under the path Express matched: req.url is not it, Express 4 strips `/payments/` from `/payments//checkout`.
    const path = pathUnderMount(rawPathOf(req.originalUrl ?? req.url ?? '/'), req.baseUrl ?? '');
    if (path === undefined) return false;
    // A parser ran first only if it consumed the stream (Express 4's json() sets `req.body = {}` even when it did not).
    // The bytes it kept win over what it parsed, so the webhook can check its signature, as on Koa and Nest.
    const request = toNeutralRequest(req, {
      path,
      parsedBody: req.readableEnded ? (keptRawBody(req) ?? req.body) : undefined,
      context: req,
      limitBytes: handlers.bodyLimitBytes,
    });
    const response = await handlers.handle(request);
    if (response === undefined) return false;
    writeNeutralResponse(res, response);
    return true;
  };
  const router = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    // Express 4 ignores a rejected promise, so failures are handed to next() explicitly.
    serve(req, res).then((served) => {
      if (!served) next();
    }, next);
  };
  return Object.assign(router, { handlers });
}
