// The order routes: what they are handed, their request schemas, looking up the order and refusals as
// answers; the checkout, status, wallet config and wallet pay routes; the wallet payment request.
import * as z from 'zod/mini';
import { GENERIC_MESSAGE, jsonResponse } from '../http/error-answers';
import { checkFormOrigin, type NeutralRequest, type NeutralResponse, PaymentRouteError, readRequestBody } from '../http/neutral-http';
import { isRefusal, type OrderRefusal } from '../orders/next-attempt';
import type { OrderGuard } from '../orders/order-guard';
import { payableTotal } from '../schemas/amount';
import { walletPaymentRequestInputSchema, walletTokenSchema } from '../schemas/requests';
import { PaymentError, PaymentErrorCode, PaymentValidationError } from '../shared/errors';
import { fromMinorUnits } from '../shared/money';
import type { OrderAttempt, WalletPaymentRequestInput } from '../shared/types';
import { validate } from '../shared/validation';
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

/** What the checkout, status and wallet routes are handed: the resolved config whole (its order lookup observed), and the guard. */
export type RouteDeps = PaymentRoutesConfig & { guard: OrderGuard };

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

/** The service supports five card networks; these are the wallet API's codes for them. */
export const DEFAULT_CARD_NETWORKS = ['AMEX', 'DISCOVER', 'JCB', 'MASTERCARD', 'VISA'] as const;

export interface WalletPaymentRequest {
  apiVersion: 2;
  apiVersionMinor: 0;
  allowedPaymentMethods: Array<{
    type: 'CARD';
    parameters: {
      allowedAuthMethods: ['CRYPTOGRAM_3DS'];
      allowedCardNetworks: string[];
      billingAddressRequired: true;
      billingAddressParameters: { format: 'FULL' };
    };
    tokenizationSpecification: {
      type: 'PAYMENT_GATEWAY';
      parameters: { gateway: string; gatewayMerchantId: string };
    };
  }>;
  merchantInfo?: { merchantName: string };
  transactionInfo: { totalPriceStatus: 'FINAL'; totalPrice: string; currencyCode: string; countryCode?: string };
}

/**
 * The browser wallet's payment data request for an order. Only
 * `CRYPTOGRAM_3DS` is offered (the service refuses `PAN_ONLY`), the billing
 * address is requested because address verification is on by default, and
 * the total is the server-side order's payable total, written from minor units.
 */
export function buildWalletPaymentRequest(input: WalletPaymentRequestInput): WalletPaymentRequest {
  const { amount, gatewayId, merchantId, allowedCardNetworks, merchantName, countryCode } = validate(
    walletPaymentRequestInputSchema,
    input,
    'wallet payment request',
  );
  return {
    apiVersion: 2,
    apiVersionMinor: 0,
    allowedPaymentMethods: [
      {
        type: 'CARD',
        parameters: {
          allowedAuthMethods: ['CRYPTOGRAM_3DS'],
          allowedCardNetworks: allowedCardNetworks ?? [...DEFAULT_CARD_NETWORKS],
          billingAddressRequired: true,
          billingAddressParameters: { format: 'FULL' },
        },
        tokenizationSpecification: {
          type: 'PAYMENT_GATEWAY',
          parameters: { gateway: gatewayId, gatewayMerchantId: merchantId },
        },
      },
    ],
    ...(merchantName === undefined ? {} : { merchantInfo: { merchantName } }),
    transactionInfo: {
      totalPriceStatus: 'FINAL',
      totalPrice: fromMinorUnits(payableTotal(amount), amount.priceCurrency),
      currencyCode: amount.priceCurrency,
      ...(countryCode === undefined ? {} : { countryCode }),
    },
  };
}

/** A browser form post or navigation wants a redirect; a script wants JSON. */
function wantsRedirect(kind: 'json' | 'form', accept: string | string[] | undefined): boolean {
  if (kind === 'form') return true;
  const value = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(value);
}

/** POST /checkout: `{ orderId }` → a hosted checkout session for the server-side order. */
export async function checkoutRoute(req: NeutralRequest, deps: RouteDeps): Promise<NeutralResponse> {
  const { kind, fields } = await readRequestBody(req, { accept: ['json', 'form'], limitBytes: deps.bodyLimitBytes });
  checkFormOrigin(req, kind, deps.allowedOrigins);
  const { orderId } = validate(checkoutRequestSchema, fields, 'checkout request');
  const order = await lookUpOrder(deps, orderId, 'checkout', req);
  const guarded = await withInvalidOrderAs500(deps, order, () =>
    deps.guard.checkout(order, (transactionRequestId) => {
      const merchantReturnUrl = urlFor(deps.merchantReturnUrl, order, order.merchantReturnUrl);
      return {
        referenceOrderId: order.referenceOrderId,
        amount: order.amount,
        description: order.description,
        transactionRequestId,
        ...(order.productList ? { productList: order.productList } : {}),
        ...(merchantReturnUrl !== undefined ? { merchantReturnUrl } : {}),
        ...callbackUrls(deps, order),
      };
    }),
  );
  const session = unlessRefused(guarded);
  deps.logger.info(
    { referenceOrderId: order.referenceOrderId, transactionRequestId: session.transactionRequestId, traceId: session.traceId },
    session.reused ? "checkout answered with the order's open session" : 'checkout session created',
  );
  if (wantsRedirect(kind, req.headers.accept)) {
    return { status: 303, headers: { location: session.checkoutUrl, 'cache-control': 'no-store' }, body: '' };
  }
  return jsonResponse(201, {
    checkoutUrl: session.checkoutUrl,
    expiresAt: session.expiresAt.toISOString(),
    // What the merchant's back office passes to client.expireCheckoutSession to cancel an abandoned checkout.
    ...(session.sessionId === undefined ? {} : { sessionId: session.sessionId }),
  });
}

/** What a shop's page shows: `pending` covers an open hosted session and a payment whose outcome is not known yet. */
export type OrderPaymentStatus = 'unpaid' | 'pending' | 'succeeded' | 'failed' | 'closed';

function statusOf(attempt: OrderAttempt | undefined): OrderPaymentStatus {
  if (attempt === undefined) return 'unpaid';
  return attempt.state === 'open' ? 'pending' : attempt.state;
}

/**
 * GET /status?orderId= → where the order's payment stands, from its current
 * attempt, refreshed from the service while it is not final. Nothing a
 * browser could not already see: no amount, no session URL.
 */
export async function statusRoute(req: NeutralRequest, deps: RouteDeps): Promise<NeutralResponse> {
  const { orderId } = validate(orderQuerySchema, req.query, 'status request');
  const order = await lookUpOrder(deps, orderId, 'status', req);
  const attempt = await withInvalidOrderAs500(deps, order, () => deps.guard.status(order));
  return jsonResponse(200, {
    orderId,
    status: statusOf(attempt),
    payable: order.payable !== false,
    ...(attempt?.transactionId === undefined ? {} : { transactionId: attempt.transactionId }),
    updatedAt: attempt === undefined ? null : new Date(attempt.updatedAt).toISOString(),
  });
}

/** GET /wallet/config?orderId= → the browser wallet request for the server-side order's total. */
export async function walletConfigRoute(req: NeutralRequest, deps: RouteDeps): Promise<NeutralResponse> {
  const wallet = deps.wallet;
  if (wallet === undefined) {
    throw new PaymentRouteError(404, PaymentErrorCode.WALLET_NOT_CONFIGURED, 'The wallet routes need the `wallet` option (gatewayId).');
  }
  const { orderId } = validate(orderQuerySchema, req.query, 'wallet config request');
  // Refused as a payment of it would be, by the guard's rule: no wallet sheet opens for an order that takes no payment.
  const order = unlessRefused(deps.guard.payable(await lookUpOrder(deps, orderId, 'wallet-config', req)));
  const request = await withInvalidOrderAs500(deps, order, () =>
    buildWalletPaymentRequest({
      amount: order.amount,
      gatewayId: wallet.gatewayId,
      merchantId: deps.client.merchantId,
      ...(wallet.allowedCardNetworks ? { allowedCardNetworks: wallet.allowedCardNetworks } : {}),
      ...(wallet.merchantName !== undefined ? { merchantName: wallet.merchantName } : {}),
      ...(wallet.countryCode !== undefined ? { countryCode: wallet.countryCode } : {}),
    }),
  );
  return jsonResponse(200, request);
}

/** A wallet payment of an order already paid succeeds for the browser, charging nothing. */
function alreadyPaid(deps: RouteDeps, { referenceOrderId, transactionRequestId, transactionId }: OrderAttempt): NeutralResponse {
  deps.logger.info({ referenceOrderId, transactionRequestId }, 'wallet payment of an order already paid: nothing sent');
  return jsonResponse(200, {
    status: 'succeeded',
    referenceOrderId,
    transactionRequestId,
    ...(transactionId === undefined ? {} : { transactionId }),
    alreadyPaid: true,
  });
}

/**
 * POST /wallet/pay: `{ orderId, token }` → a direct wallet payment of the
 * server-side order, under the order's lock. An order already paid is
 * answered `succeeded` with `alreadyPaid: true` and charged nothing. The token
 * goes to the service only: never logged, never echoed, not even in a
 * validation message.
 */
export async function walletPayRoute(req: NeutralRequest, deps: RouteDeps): Promise<NeutralResponse> {
  const { fields } = await readRequestBody(req, { accept: ['json'], limitBytes: deps.bodyLimitBytes });
  const { orderId, token } = validate(walletPayRequestSchema, fields, 'wallet payment request');
  const order = await lookUpOrder(deps, orderId, 'wallet-pay', req);
  const { referenceOrderId } = order;
  const result = await withInvalidOrderAs500(deps, order, () =>
    deps.guard.payWallet(order, (transactionRequestId) => ({
      referenceOrderId,
      amount: order.amount,
      description: order.description,
      cardEncryptedData: token,
      transactionRequestId,
      ...callbackUrls(deps, order),
    })),
  );
  if (isRefusal(result)) {
    if (result.refused === 'already-paid') return alreadyPaid(deps, result.attempt);
    throw refusalError(result);
  }
  deps.logger.info(
    {
      referenceOrderId,
      transactionRequestId: result.transactionRequestId,
      transactionId: result.transactionId,
      status: result.status,
      resultCode: result.resultCode,
      outcomeUnknown: result.outcomeUnknown,
    },
    'wallet payment sent',
  );
  return jsonResponse(200, {
    status: result.status,
    referenceOrderId,
    transactionRequestId: result.transactionRequestId,
    ...(result.transactionId === undefined ? {} : { transactionId: result.transactionId }),
    ...(result.status === 'failed' && isReasonCode(result.resultCode) ? { resultCode: result.resultCode } : {}),
  });
}

/**
 * Only a short identifier such as `CARD_DECLINED` goes back to the browser, so
 * the shop can say why; free text from the service (which could quote
 * anything it was sent) never does.
 */
function isReasonCode(code: string | undefined): code is string {
  return code !== undefined && /^[A-Za-z0-9_.-]{1,64}$/.test(code);
}
