// The checkout, status, wallet config and wallet pay routes; the wallet payment request.
import { jsonResponse } from '../http/error-answers';
import { type NeutralRequest, type NeutralResponse, PaymentRouteError } from '../http/neutral-http';
import { checkFormOrigin, readRequestBody } from '../http/request-body';
import { isRefusal } from '../orders/guard-deps';
import { payableTotal } from '../schemas/amount';
import { walletPaymentRequestInputSchema } from '../schemas/requests';
import { PaymentErrorCode } from '../shared/errors';
import { fromMinorUnits } from '../shared/money';
import type { OrderAttempt, WalletPaymentRequestInput } from '../shared/types';
import { validate } from '../shared/validation';
import { callbackUrls, checkoutRequestSchema, lookUpOrder, orderQuerySchema, refusalError, type RouteDeps, unlessRefused, urlFor, walletPayRequestSchema, withInvalidOrderAs500 } from './route-deps';

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
