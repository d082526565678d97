import type { OrderAttempt } from '../types/order-attempt';
import { isRefusal } from '../orders/refusals';
import { validate } from '../validation';
import { readRequestBody } from './body';
import { jsonResponse } from './errors-to-response';
import type { NeutralRequest, NeutralResponse } from './neutral-http';
import { refusalError } from './order-refusals';
import { walletPayRequestSchema } from './request-schemas';
import { callbackUrls, withInvalidOrderAs500, lookUpOrder, type RouteDeps } from './route-deps';

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
