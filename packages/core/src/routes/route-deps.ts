import type { PaymentClient } from '../client';
import type { Logger } from '../logger';
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
  bodyLimitBytes: number;
  logger: Logger;
}

/** A URL option for one order: the order's own wins, then a per-order function, then the fixed URL. */
export function urlFor(
  option: string | ((order: MerchantOrder) => string) | undefined,
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
