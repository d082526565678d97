import { PaymentErrorCode } from '../error-codes';
import type { NeutralRequest } from './neutral-http';
import { PaymentRouteError } from './route-error';

function bodyReadTimeout(ms: number): PaymentRouteError {
  return new PaymentRouteError(408, PaymentErrorCode.BODY_READ_TIMEOUT, 'The request body did not arrive in time.', {
    fix:
      `a body still arriving ${ms} ms after the route started reading it is refused, so slow senders cannot hold connections open; ` +
      'raise bodyReadTimeoutMs only if genuine clients (e.g. behind a proxy that streams slowly) need longer',
  });
}

/**
 * `req` as the routes read it: its body must arrive in full within `ms` of
 * the route asking for it, or the read fails with 408 (whose answer asks to
 * close the connection) and the reader is told to stop (a fetch body's stream
 * is cancelled). Every adapter hands its body to the routes through
 * `readBody`, so this one wrapper bounds them all.
 */
export function withBodyDeadline(req: NeutralRequest, ms: number): NeutralRequest {
  const { readBody } = req;
  if (readBody === undefined) return req;
  return {
    ...req,
    readBody: () =>
      new Promise<Uint8Array>((resolve, reject) => {
        const stop = new AbortController();
        const timer = setTimeout(() => {
          stop.abort();
          reject(bodyReadTimeout(ms));
        }, ms);
        readBody(stop.signal).then(resolve, reject).finally(() => clearTimeout(timer));
      }),
  };
}
