import { PaymentError } from '../errors';

/** A request to a paymount route that cannot be served as sent; `httpStatus` is what the route answers. */
export class PaymentRouteError extends PaymentError {
  override name = 'PaymentRouteError';
  declare readonly httpStatus: number;

  constructor(httpStatus: number, code: string, message: string) {
    super(message, { code, httpStatus });
  }
}

export const BODY_TOO_LARGE_MESSAGE = 'The request body is too large.';

/** One wording whichever layer notices (the adapter's reader, a route, the webhook verifier), so answers stay identical. */
export function bodyTooLarge(): PaymentRouteError {
  return new PaymentRouteError(413, 'BODY_TOO_LARGE', BODY_TOO_LARGE_MESSAGE);
}
