import { PaymentErrorCode } from '../error-codes';
import { PaymentError } from '../errors';

export interface PaymentRouteErrorOptions {
  /** Seconds after which the same request may succeed (sent as `Retry-After`), when it is a matter of time. */
  retryAfterSeconds?: number;
  /** What went wrong underneath: logged, never answered. */
  cause?: unknown;
  /** How the merchant fixes it, when paymount knows: logged with the failure, never answered. */
  fix?: string;
  /** More fields for the log line of the failure, never answered. */
  details?: Readonly<Record<string, unknown>>;
}

/** A request to a paymount route that cannot be served as sent; `httpStatus` is what the route answers. */
export class PaymentRouteError extends PaymentError {
  override name = 'PaymentRouteError';
  declare readonly httpStatus: number;
  /** Seconds after which the same request may succeed (sent as `Retry-After`), when it is a matter of time. */
  readonly retryAfterSeconds: number | undefined;
  /** How the merchant fixes it, when paymount knows; logged, never answered. */
  readonly fix: string | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(httpStatus: number, code: PaymentErrorCode, message: string, options: PaymentRouteErrorOptions = {}) {
    super(message, { code, httpStatus, cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.fix = options.fix;
    this.details = options.details;
  }
}

export const BODY_TOO_LARGE_MESSAGE = 'The request body is too large.';

/**
 * One wording whichever layer notices (the adapter's reader, a route, the
 * webhook verifier), so answers stay identical; `fix` is logged, never answered.
 */
export function bodyTooLarge(fix?: string): PaymentRouteError {
  return new PaymentRouteError(413, PaymentErrorCode.BODY_TOO_LARGE, BODY_TOO_LARGE_MESSAGE, fix === undefined ? {} : { fix });
}
