import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPaymentHandlers, type PaymentHandlers, type PaymentHandlersOptions } from '@paymount/core';
import { toNeutralRequest, writeNeutralResponse } from '@paymount/core/http';

/** What body parsers mounted before paymount leave on the request. */
type ExpressRequest = IncomingMessage & { body?: unknown };

/**
 * Express middleware serving the payment routes; mount it like a Router:
 * `app.use('/payments', paymentRouter(options))`. Typed against Node's own
 * request and response so one build serves Express 4 and Express 5.
 */
export interface PaymentRouter {
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  /** The core handlers behind the routes: `handlers.client`, `handlers.on(...)`, `handlers.close()`. */
  readonly handlers: PaymentHandlers;
}

export function paymentRouter(options: PaymentHandlersOptions): PaymentRouter {
  const handlers = createPaymentHandlers(options);
  const serve = async (req: ExpressRequest, res: ServerResponse): Promise<boolean> => {
    // No `path` option: Express strips the mount path from req.url, where toNeutralRequest reads it.
    // A parser ran first only if it consumed the stream (Express 4's json() sets `req.body = {}` even when it did not).
    const request = toNeutralRequest(req, {
      parsedBody: req.readableEnded ? req.body : undefined,
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
