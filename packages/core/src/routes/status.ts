import { isFinalState, type OrderAttempt } from '../orders/attempt';
import { underOrderLock } from '../orders/order-lock';
import { checkAttempt } from '../orders/service-check';
import { validate } from '../validation';
import { jsonResponse } from './errors-to-response';
import type { NeutralRequest, NeutralResponse } from './neutral-http';
import { orderQuerySchema } from './request-schemas';
import { lookUpOrder, type RouteDeps } from './route-deps';

/** What a shop's page shows: `pending` covers an open hosted session and a payment whose outcome is not known yet. */
export type OrderPaymentStatus = 'unpaid' | 'pending' | 'succeeded' | 'failed' | 'closed';

function statusOf(attempt: OrderAttempt | undefined): OrderPaymentStatus {
  if (attempt === undefined) return 'unpaid';
  return attempt.state === 'open' ? 'pending' : attempt.state;
}

/** A page polling the status of an unsettled order asks the service at most this often about it. */
export const STATUS_REFRESH_INTERVAL_MS = 5_000;

/**
 * The order's attempt, asked about again when it is not final and has not
 * been checked for STATUS_REFRESH_INTERVAL_MS. Under the order's lock, so it
 * never races a payment; while a payment holds the lock, the stored attempt is
 * answered.
 */
async function currentAttempt(deps: RouteDeps, referenceOrderId: string): Promise<OrderAttempt | undefined> {
  const stored = await deps.orders.store.get(referenceOrderId);
  const stale = (attempt: OrderAttempt | undefined): attempt is OrderAttempt =>
    attempt !== undefined && !isFinalState(attempt.state) && deps.orders.clock.now() - attempt.updatedAt >= STATUS_REFRESH_INTERVAL_MS;
  if (!stale(stored)) return stored;
  return underOrderLock(
    deps.orders,
    referenceOrderId,
    async () => {
      const current = await deps.orders.store.get(referenceOrderId);
      return stale(current) ? (await checkAttempt(deps, current)).attempt : current;
    },
    () => stored,
  );
}

/**
 * GET /status?orderId= → where the order's payment stands, from its current
 * attempt, refreshed from the service while it is not final. Nothing a
 * browser could not already see: no amount, no session URL.
 */
export async function statusRoute(req: NeutralRequest, deps: RouteDeps): Promise<NeutralResponse> {
  const { orderId } = validate(orderQuerySchema, req.query, 'status request');
  const order = await lookUpOrder(deps, orderId, 'status', req);
  const attempt = await currentAttempt(deps, order.referenceOrderId);
  return jsonResponse(200, {
    orderId,
    status: statusOf(attempt),
    payable: order.payable !== false,
    ...(attempt?.transactionId === undefined ? {} : { transactionId: attempt.transactionId }),
    updatedAt: attempt === undefined ? null : new Date(attempt.updatedAt).toISOString(),
  });
}
