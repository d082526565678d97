import { PaymentError } from '../errors';

/** A request to a paymount route that cannot be served as sent; `httpStatus` is what the route answers. */
export class PaymentRouteError extends PaymentError {
  override name = 'PaymentRouteError';
  declare readonly httpStatus: number;

  constructor(httpStatus: number, code: string, message: string) {
    super(message, { code, httpStatus });
  }
}

export function bodyTooLarge(limitBytes: number): PaymentRouteError {
  return new PaymentRouteError(413, 'BODY_TOO_LARGE', `The request body exceeds the limit of ${limitBytes} bytes.`);
}
