import type { OrderAttempt } from '../types/order-attempt';
import { validate } from '../validation';
import { jsonResponse } from './errors-to-response';
import type { NeutralRequest, NeutralResponse } from './neutral-http';
import { orderQuerySchema } from './request-schemas';
import { lookUpOrder, withInvalidOrderAs500, type RouteDeps } from './route-deps';

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
