import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPaymentHandlers } from './create-payment-handlers';
import { errorResponse } from './errors-to-response';
import { toNeutralRequest, writeNeutralResponse } from './node';
import type { PaymentHandlers, PaymentHandlersOptions } from './types';

export interface NodeMiddlewareOptions {
  /** Where the routes are mounted, e.g. '/payments'. Default '' (the root). */
  mountPath?: string;
}

export type NodeMiddleware = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void) & {
  handlers: PaymentHandlers;
};

function isHandlers(value: PaymentHandlers | PaymentHandlersOptions): value is PaymentHandlers {
  return typeof (value as Partial<PaymentHandlers>).handle === 'function';
}

/** The request path relative to `mountPath`, or undefined when the request is outside it. */
function relativePath(url: string | undefined, mountPath: string): string | undefined {
  const path = new URL(url ?? '/', 'http://localhost').pathname;
  if (mountPath === '') return path;
  if (path === mountPath) return '/';
  return path.startsWith(`${mountPath}/`) ? path.slice(mountPath.length) : undefined;
}

/**
 * The payment routes for a plain `node:http` server or any connect-style
 * stack. Requests outside the routes go to `next`, or get a JSON 404 when there
 * is none.
 */
export function createNodeMiddleware(
  handlersOrOptions: PaymentHandlers | PaymentHandlersOptions,
  options: NodeMiddlewareOptions = {},
): NodeMiddleware {
  const handlers = isHandlers(handlersOrOptions) ? handlersOrOptions : createPaymentHandlers(handlersOrOptions);
  const mountPath = (options.mountPath ?? '').replace(/\/+$/, '');
  const passOn = (res: ServerResponse, next?: (error?: unknown) => void) => {
    if (next) next();
    else writeNeutralResponse(res, errorResponse(404, { code: 'NOT_FOUND', message: 'No route here.' }));
  };
  const middleware = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => {
    const path = relativePath(req.url, mountPath);
    if (path === undefined) return passOn(res, next);
    const neutral = toNeutralRequest(req, { path, limitBytes: handlers.bodyLimitBytes });
    handlers.handle(neutral).then(
      (response) => (response ? writeNeutralResponse(res, response) : passOn(res, next)),
      (error: unknown) => (next ? next(error) : res.destroy(error as Error)),
    );
  };
  return Object.assign(middleware, { handlers });
}
