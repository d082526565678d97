import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPaymentRoutes } from './create-payment-routes';
import { notFoundResponse } from './errors-to-response';
import { isPaymentRoutes, normalizeMountPath, pathUnderMount, rawPathOf } from './mount-path';
import { toNeutralRequest, writeNeutralResponse } from './node-http-bridge';
import type { PaymentRoutes, PaymentRoutesOptions } from './types';

export interface NodeMiddlewareOptions {
  /** Where the routes are mounted, e.g. '/payments'. Default '' (the root). */
  mountPath?: string;
}

export type NodeMiddleware = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void) & {
  paymentRoutes: PaymentRoutes;
};

/**
 * The payment routes for a plain `node:http` server or any connect-style
 * stack. Requests outside the routes go to `next`, or get a JSON 404 when there
 * is none.
 */
export function createNodeMiddleware(
  routesOrOptions: PaymentRoutes | PaymentRoutesOptions,
  options: NodeMiddlewareOptions = {},
): NodeMiddleware {
  const paymentRoutes = isPaymentRoutes<PaymentRoutes>(routesOrOptions)
    ? routesOrOptions
    : createPaymentRoutes(routesOrOptions);
  const mountPath = normalizeMountPath(options.mountPath);
  const passOn = (res: ServerResponse, next?: (error?: unknown) => void) => {
    if (next) next();
    else writeNeutralResponse(res, notFoundResponse());
  };
  const middleware = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => {
    const path = pathUnderMount(rawPathOf(req.url ?? '/'), mountPath);
    if (path === undefined) return passOn(res, next);
    const neutral = toNeutralRequest(req, { path, limitBytes: paymentRoutes.bodyLimitBytes });
    const serve = async (): Promise<boolean> => {
      const response = await paymentRoutes.handle(neutral);
      if (response === undefined) return false;
      // Inside the promise, so a response Node refuses to write reaches next() instead of going unhandled.
      writeNeutralResponse(res, response);
      return true;
    };
    serve().then(
      (served) => {
        if (!served) passOn(res, next);
      },
      (error: unknown) => (next ? next(error) : res.destroy(error as Error)),
    );
  };
  return Object.assign(middleware, { paymentRoutes });
}
