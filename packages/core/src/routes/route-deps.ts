import { PaymentErrorCode } from '../error-codes';
import type { PaymentClient } from '../client/types';
import { PaymentError, PaymentValidationError } from '../errors';
import { GENERIC_MESSAGE } from './errors-to-response';
import type { Logger } from '../logger';
import type { OrderGuard } from '../orders/order-guard';
import type { NeutralRequest } from './neutral-http';
import { PaymentRouteError } from './route-error';
import type { MerchantOrder, PaymentRoutesOptions, PaymentRouteName, WalletRouteOptions } from './types';

/** What the checkout and wallet routes share, resolved once from the options. */
export interface RouteDeps {
  client: PaymentClient;
  resolveOrder: PaymentRoutesOptions['resolveOrder'];
  notifyUrl: PaymentRoutesOptions['notifyUrl'];
  merchantReturnUrl: PaymentRoutesOptions['merchantReturnUrl'];
  wallet: WalletRouteOptions | undefined;
  /** Origins besides the app's own that may post the checkout form. */
  allowedOrigins: ReadonlySet<string>;
  bodyLimitBytes: number;
  logger: Logger;
  guard: OrderGuard;
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

/** The merchant's resolveOrder, whose own failure is told apart from paymount's in the log line. */
async function resolveWith(
  deps: RouteDeps,
  orderId: string,
  route: PaymentRouteName,
  request: NeutralRequest,
): Promise<MerchantOrder | null | undefined> {
  try {
    return await deps.resolveOrder(orderId, { route, request, context: request.context });
  } catch (error) {
    // A PaymentError is the merchant's chosen answer (e.g. a PaymentRouteError); anything else is a crash of the hook.
    if (error instanceof PaymentError) throw error;
    throw new PaymentRouteError(500, PaymentErrorCode.INTERNAL_ERROR, GENERIC_MESSAGE, {
      cause: error,
      details: { orderId },
      fix: 'resolveOrder(orderId, ctx) threw (see err): it must return the order, or null when no order has this id',
    });
  }
}

/** The merchant's server-side order for `orderId`; 404 when the hook knows none. */
export async function lookUpOrder(
  deps: RouteDeps,
  orderId: string,
  route: PaymentRouteName,
  request: NeutralRequest,
): Promise<MerchantOrder> {
  const order = await resolveWith(deps, orderId, route, request);
  if (order === null || order === undefined) {
    throw new PaymentRouteError(404, PaymentErrorCode.ORDER_NOT_FOUND, 'No order exists with this orderId.');
  }
  return order;
}

/**
 * A callback URL refused as not public is a local setup missing its opt-in;
 * an order id the service refuses is fixed in the merchant's ids, not in the
 * order's fields, so its fix names the id's own rule; anything else is the
 * order (or an option) breaking the listed rules.
 */
function invalidOrderFix(error: PaymentValidationError, order: MerchantOrder): string {
  if (error.issues.some((issue) => issue.rule === 'public_https')) {
    return (
      'notifyUrl and merchantReturnUrl must be public HTTPS in production; against a local sandbox, ' +
      'create the client with localDevelopment: true, as `sandbox.clientOptions()` does'
    );
  }
  const idIssue = error.issues.find((issue) => issue.path === 'referenceOrderId');
  if (idIssue) {
    return (
      `resolveOrder returned a referenceOrderId of ${String(order.referenceOrderId).length} characters that ${idIssue.message}: ` +
      'give orders ids of 6 to 32 letters, digits, "_", "-", "|" or "*", e.g. `randomUUID().replaceAll(\'-\', \'\')`'
    );
  }
  return 'the payment request built from the order resolveOrder returned breaks the rules listed in issues (amounts are whole minor units): correct the order or the options';
}

/**
 * Runs a step that builds a service request from the merchant's order. The
 * browser's own input was validated before, so a validation error here is the
 * server's (an order or option breaking docs/service-contract.md#fields-and-rules): the browser gets a 500, the
 * log gets the broken rules.
 */
export async function withInvalidOrderAs500<T>(deps: RouteDeps, order: MerchantOrder, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof PaymentValidationError)) throw error;
    throw new PaymentRouteError(500, PaymentErrorCode.INVALID_ORDER, 'This order cannot be paid as it is set up on the server.', {
      details: { referenceOrderId: order.referenceOrderId, issues: error.issues },
      fix: invalidOrderFix(error, order),
    });
  }
}
