import { decideNextAttempt, orderCharge, orderRefusals, sendAttempt } from '../orders/next-attempt';
import { underOrderLock } from '../orders/order-lock';
import { validate } from '../validation';
import { readRequestBody } from './body';
import { jsonResponse } from './errors-to-response';
import type { NeutralRequest, NeutralResponse } from './neutral-http';
import { walletPayRequestSchema } from './request-schemas';
import { callbackUrls, withInvalidOrderAs500, lookUpPayableOrder, type RouteDeps } from './route-deps';

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
  const order = await lookUpPayableOrder(deps, orderId, 'wallet-pay', req);
  const { referenceOrderId } = order;
  return underOrderLock(deps.orders, referenceOrderId, async () => {
    const charge = orderCharge(order);
    const decision = await decideNextAttempt(deps, charge, 'wallet');
    if (decision.next === 'paid') {
      const { transactionRequestId, transactionId } = decision.attempt;
      deps.logger.info({ referenceOrderId, transactionRequestId }, 'wallet payment of an order already paid: nothing sent');
      return jsonResponse(200, {
        status: 'succeeded',
        referenceOrderId,
        transactionRequestId,
        ...(transactionId === undefined ? {} : { transactionId }),
        alreadyPaid: true,
      });
    }
    if (decision.next === 'pending') throw orderRefusals.pending(decision.retryAfterSeconds);
    if (decision.next !== 'send') throw orderRefusals.pending();
    const result = await withInvalidOrderAs500(deps, order, () =>
      sendAttempt(
        deps.orders,
        decision,
        { charge, kind: 'wallet' },
        (transactionRequestId) =>
          deps.client.directPayment({
            referenceOrderId,
            amount: order.amount,
            description: order.description,
            cardEncryptedData: token,
            transactionRequestId,
            ...callbackUrls(deps, order),
          }),
        (paid) => ({ state: paid.status, ...(paid.transactionId === undefined ? {} : { transactionId: paid.transactionId }) }),
      ),
    );
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
