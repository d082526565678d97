import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { createPaymentRoutes, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { pathUnderMount, rawPathOf, serveNodeRequest } from '@paymount/core/http';

/** What body parsers mounted before paymount leave on the request (see BodyParserLeftovers), and Express's mount. */
type ExpressRequest = IncomingMessage & { body?: unknown; rawBody?: unknown; originalUrl?: string; baseUrl?: string };

/**
 * Logged when a body parser before the router consumed a body the routes need
 * (the webhook's bytes): in Express's words, code that compiles as written in
 * a strict TypeScript app (tests/readmes compiles it).
 */
export const EXPRESS_CONSUMED_BODY_FIX =
  'a body parser such as express.json() read the request before the payment routes and kept no raw bytes, which the webhook signature covers: ' +
  "mount the payment routes first, `app.use('/payments', paymentRouter(options));` above `app.use(express.json());`, " +
  'or have the parser keep the bytes where paymount reads them: ' +
  '`app.use(express.json({ verify: (req, _res, buf) => { Object.assign(req, { rawBody: buf }); } }));`';

/** The handler options, with `resolveOrder` and the event handlers given the Express `Request` as `ctx.context`. */
export type PaymentRouterOptions = PaymentRoutesOptions<Request>;

/**
 * Express middleware serving the payment routes; mount it like a Router:
 * `app.use('/payments', paymentRouter(options))`. Typed against Node's own
 * request and response so one build serves Express 4 and Express 5.
 */
export interface PaymentRouter {
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  /** The core routes behind the middleware: `paymentRoutes.client`, `.on(...)`, `.close()`. */
  readonly paymentRoutes: PaymentRoutes<Request>;
}

export function paymentRouter(options: PaymentRouterOptions): PaymentRouter {
  const paymentRoutes = createPaymentRoutes(options);
  const router = (req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void): void => {
    // The path as sent under the path Express matched: req.url is not it, Express 4 strips `/payments/` from `/payments//checkout`.
    const path = pathUnderMount(rawPathOf(req.originalUrl ?? req.url ?? '/'), req.baseUrl ?? '');
    if (path === undefined) return next();
    const served = serveNodeRequest(paymentRoutes, req, res, {
      path,
      bodyParser: { rawBody: req.rawBody, body: req.body },
      context: req,
      consumedBodyFix: EXPRESS_CONSUMED_BODY_FIX,
    });
    // Express 4 ignores a rejected promise, so failures are handed to next() explicitly.
    served.then((answered) => {
      if (!answered) next();
    }, next);
  };
  return Object.assign(router, { paymentRoutes });
}
