import { PaymentErrorCode } from '../error-codes';
import { validate } from '../validation';
import { buildWalletPaymentRequest } from '../wallet/payment-request';
import { jsonResponse } from './errors-to-response';
import type { NeutralRequest, NeutralResponse } from './neutral-http';
import { orderQuerySchema } from './request-schemas';
import { unlessRefused } from './order-refusals';
import { withInvalidOrderAs500, lookUpOrder, type RouteDeps } from './route-deps';
import { PaymentRouteError } from './route-error';

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
