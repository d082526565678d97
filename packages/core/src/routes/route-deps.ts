// What every order route is handed, its request schemas, looking up the order, refusals to errors.
import * as z from 'zod/mini';
import { GENERIC_MESSAGE } from '../http/error-answers';
import { type NeutralRequest, PaymentRouteError } from '../http/neutral-http';
import { isRefusal, type OrderRefusal } from '../orders/guard-deps';
import type { OrderGuard } from '../orders/order-guard';
import { walletTokenSchema } from '../schemas/requests';
import { PaymentError, PaymentErrorCode, PaymentValidationError } from '../shared/errors';
import type { PaymentRoutesConfig } from './config';
import type { MerchantOrder, PaymentRouteName } from './types';

const orderIdSchema = z
  .string('must be the order id, a string')
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(128, 'must be at most 128 characters'));

/**
 * The browser sends only which order to pay. `z.object` drops every other
 * field, so an `amount` or `description` posted by the browser is never read.
 */
export const checkoutRequestSchema = z.object({ orderId: orderIdSchema });

/** The query of GET /wallet/config and GET /status. */
export const orderQuerySchema = z.object({ orderId: orderIdSchema });

const TOKEN_FIELDS = ['protocolVersion', 'signature', 'signedMessage'] as const;

/** Whether `text` is the JSON text of an object carrying the wallet token's string fields. */
function isWalletTokenText(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  return TOKEN_FIELDS.every((field) => typeof (parsed as Record<string, unknown>)[field] === 'string');
}

/**
 * The token as the browser read it from `paymentMethodData.tokenizationData.token`:
 * for `PAYMENT_GATEWAY` tokenization, the JSON text of an object with
 * `protocolVersion`, `signature` and `signedMessage`. Any other string is the
 * browser's mistake, answered 400 here rather than sent on for the service to
 * refuse (which the route could only answer as a service error, 502). The
 * messages never quote the value.
 */
const browserWalletTokenSchema = walletTokenSchema.check(
  z.refine(isWalletTokenText, {
    message: 'must be the wallet token JSON text (an object with protocolVersion, signature and signedMessage)',
    params: { rule: 'wallet_token' },
  }),
);

export const walletPayRequestSchema = z.object({
  orderId: orderIdSchema,
  token: browserWalletTokenSchema,
});

/** The answer to a request the order guard sent nothing for. */
export function refusalError(refusal: OrderRefusal): PaymentRouteError {
  switch (refusal.refused) {
    case 'not-payable':
      return new PaymentRouteError(409, PaymentErrorCode.ORDER_NOT_PAYABLE, 'This order cannot be paid now (already paid, cancelled or refunded).');
    case 'already-paid':
      return new PaymentRouteError(409, PaymentErrorCode.ORDER_ALREADY_PAID, 'This order is already paid.');
    case 'pending':
      return new PaymentRouteError(
        409,
        PaymentErrorCode.PAYMENT_PENDING,
        "The order's last payment is still being processed; nothing was sent. Its outcome is known shortly.",
        { retryAfterSeconds: refusal.retryAfterSeconds },
      );
    case 'in-progress':
      return new PaymentRouteError(409, PaymentErrorCode.PAYMENT_IN_PROGRESS, 'A payment of this order is being processed; nothing was sent. Retry shortly.', {
        retryAfterSeconds: refusal.retryAfterSeconds,
      });
    case 'not-cancelled':
      return new PaymentRouteError(502, PaymentErrorCode.CHECKOUT_NOT_CANCELLED, 'The service did not expire the checkout session; it stays open until it expires.');
  }
}

/** What the guard did, or its refusal thrown as the route's answer. */
export function unlessRefused<T extends object>(answer: T | OrderRefusal): T {
  if (isRefusal(answer)) throw refusalError(answer);
  return answer;
}

/** What the checkout and wallet routes share: the resolved options, the merchant's order lookup (observed), the guard. */
export type RouteDeps = Pick<PaymentRoutesConfig, 'client' | 'notifyUrl' | 'merchantReturnUrl' | 'wallet' | 'allowedOrigins' | 'bodyLimitBytes' | 'logger'> & {
  resolveOrder: PaymentRoutesConfig['resolveOrder'];
  guard: OrderGuard;
};

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
