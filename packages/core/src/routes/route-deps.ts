import type { PaymentClient } from '../client';
import type { Logger } from '../logger';
import type { NeutralRequest } from './neutral-http';
import { PaymentRouteError } from './route-error';
import type { MerchantOrder, PaymentHandlersOptions, PaymentRouteName, WalletRouteOptions } from './types';

/** What the checkout and wallet routes share, resolved once from the options. */
export interface RouteDeps {
  client: PaymentClient;
  resolveOrder: PaymentHandlersOptions['resolveOrder'];
  notifyUrl: string | undefined;
  merchantReturnUrl: PaymentHandlersOptions['merchantReturnUrl'];
  wallet: WalletRouteOptions | undefined;
  bodyLimitBytes: number;
  logger: Logger;
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
