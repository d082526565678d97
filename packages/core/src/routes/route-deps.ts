import type { PaymentClient } from '../client/types';
import { PaymentValidationError } from '../errors';
import type { Logger } from '../logger';
import type { OrderDeps } from '../orders/order-lock';
import type { NeutralRequest } from './neutral-http';
import { PaymentRouteError } from './route-error';
import type { MerchantOrder, PaymentHandlersOptions, PaymentRouteName, WalletRouteOptions } from './types';

/** What the checkout and wallet routes share, resolved once from the options. */
export interface RouteDeps {
  client: PaymentClient;
  resolveOrder: PaymentHandlersOptions['resolveOrder'];
  notifyUrl: PaymentHandlersOptions['notifyUrl'];
  merchantReturnUrl: PaymentHandlersOptions['merchantReturnUrl'];
  wallet: WalletRouteOptions | undefined;
  /** Origins besides the app's own that may post the checkout form. */
  allowedOrigins: ReadonlySet<string>;
  bodyLimitBytes: number;
  logger: Logger;
  orders: OrderDeps;
  /** Makes the transactionRequestId of each new payment attempt: the client's `generateId` when given. */
  generateId: () => string;
}

/** A URL option for one order: the order's own wins, then a per-order function, then the fixed URL. */
export function urlFor(
  option: string | ((order: MerchantOrder) => string | undefined) | undefined,
  order: MerchantOrder,
  own?: string,
): string | undefined {
  if (own !== undefined) return own;
  return typeof option === 'function' ? option(order) : option;
}

/** The callback URLs of a payment request, present only when configured. */
export function callbackUrls(deps: RouteDeps, order: MerchantOrder): { notifyUrl?: string } {
  const notifyUrl = urlFor(deps.notifyUrl, order);
  return notifyUrl === undefined ? {} : { notifyUrl };
}

/** The merchant's server-side order for `orderId`; 404 when the hook knows none. */
export async function lookUpOrder(
  deps: RouteDeps,
  orderId: string,
  route: PaymentRouteName,
  request: NeutralRequest,
): Promise<MerchantOrder> {
  const order = await deps.resolveOrder(orderId, { route, request, context: request.context });
  if (order === null || order === undefined) {
    throw new PaymentRouteError(404, 'ORDER_NOT_FOUND', 'No order exists with this orderId.');
  }
  return order;
}

/** The order for a payment route: 404 when unknown, 409 when the merchant says it takes no payment. */
export async function lookUpPayableOrder(
  deps: RouteDeps,
  orderId: string,
  route: PaymentRouteName,
  request: NeutralRequest,
): Promise<MerchantOrder> {
  const order = await lookUpOrder(deps, orderId, route, request);
  if (order.payable === false) {
    throw new PaymentRouteError(409, 'ORDER_NOT_PAYABLE', 'This order cannot be paid now (already paid, cancelled or refunded).');
  }
  return order;
}

/**
 * Runs a step that builds a service request from the merchant's order. The
 * browser's own input was validated before, so a validation error here is the
 * server's (an order or option the spec refuses): the browser gets a 500, the
 * log gets the broken rules.
 */
export async function fromServerSideOrder<T>(deps: RouteDeps, order: MerchantOrder, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof PaymentValidationError)) throw error;
    deps.logger.error(
      { referenceOrderId: order.referenceOrderId, issues: error.issues },
      'the payment request built from a resolved order breaks a rule of the service',
    );
    throw new PaymentRouteError(500, 'INVALID_ORDER', 'This order cannot be paid as it is set up on the server.');
  }
}
