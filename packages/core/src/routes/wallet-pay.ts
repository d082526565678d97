import { validate } from '../validation';
import { readRequestBody } from './body';
import { jsonResponse } from './errors-to-response';
import type { NeutralRequest, NeutralResponse } from './neutral-http';
import { walletPayRequestSchema } from './request-schemas';
import { callbackUrls, fromServerSideOrder, lookUpOrder, type RouteDeps } from './route-deps';

/**
 * POST /wallet/pay: `{ orderId, token }` → a direct wallet payment of the
 * server-side order. The token goes to the service only: never logged, never
 * echoed, not even in a validation message.
 */
export async function walletPayRoute(req: NeutralRequest, deps: RouteDeps): Promise<NeutralResponse> {
  const { fields } = await readRequestBody(req, { accept: ['json'], limitBytes: deps.bodyLimitBytes });
  const { orderId, token } = validate(walletPayRequestSchema, fields, 'wallet payment request');
  const order = await lookUpOrder(deps, orderId, 'wallet-pay', req);
  const result = await fromServerSideOrder(deps, order, () =>
    deps.client.directPayment({
      referenceOrderId: order.referenceOrderId,
      amount: order.amount,
      description: order.description,
      cardEncryptedData: token,
      ...callbackUrls(deps, order),
    }),
  );
  deps.logger.info(
    {
      referenceOrderId: order.referenceOrderId,
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
    referenceOrderId: order.referenceOrderId,
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
