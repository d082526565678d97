import { PaymentErrorCode } from '../error-codes';
import { PaymentError } from '../errors';

/** A request to a paymount route that cannot be served as sent; `httpStatus` is what the route answers. */
export class PaymentRouteError extends PaymentError {
  override name = 'PaymentRouteError';
  declare readonly httpStatus: number;
  /** Seconds after which the same request may succeed (sent as `Retry-After`), when it is a matter of time. */
  readonly retryAfterSeconds: number | undefined;

  constructor(httpStatus: number, code: PaymentErrorCode, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message, { code, httpStatus });
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const BODY_TOO_LARGE_MESSAGE = 'The request body is too large.';

/** One wording whichever layer notices (the adapter's reader, a route, the webhook verifier), so answers stay identical. */
export function bodyTooLarge(): PaymentRouteError {
  return new PaymentRouteError(413, PaymentErrorCode.BODY_TOO_LARGE, BODY_TOO_LARGE_MESSAGE);
}
