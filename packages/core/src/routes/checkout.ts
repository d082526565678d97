import type { CheckoutSession } from '../client/types';
import { decideNextAttempt, orderCharge, orderRefusals, sendAttempt } from '../orders/next-attempt';
import { underOrderLock } from '../orders/order-lock';
import { validate } from '../validation';
import { readRequestBody } from './body';
import { jsonResponse } from './errors-to-response';
import { checkFormOrigin } from './form-origin';
import type { NeutralRequest, NeutralResponse } from './neutral-http';
import { checkoutRequestSchema } from './request-schemas';
import { callbackUrls, withInvalidOrderAs500, lookUpPayableOrder, urlFor, type RouteDeps } from './route-deps';
import type { MerchantOrder } from './types';

/** A browser form post or navigation wants a redirect; a script wants JSON. */
function wantsRedirect(kind: 'json' | 'form', accept: string | string[] | undefined): boolean {
  if (kind === 'form') return true;
  const value = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(value);
}

type OrderSession = Pick<CheckoutSession, 'checkoutUrl' | 'expiresAt' | 'transactionRequestId' | 'sessionId'> & { traceId?: string; reused: boolean };

/**
 * How many of the order's ids a checkout tries in one request. More than one
 * only after the order's record was lost: the service then answers each id it
 * used before with the session it opened then, long expired.
 */
const MAX_SESSION_IDS_PER_CHECKOUT = 5;

/**
 * The order's hosted session, under its lock: its open, unexpired session
 * again (two tabs, a reload) when it was opened for the order's amount, else
 * a new one (the old one ended first). A paid order or a payment still
 * pending gets no session.
 */
async function sessionFor(deps: RouteDeps, order: MerchantOrder): Promise<OrderSession> {
  for (let tried = 1; ; tried += 1) {
    const session = await nextSession(deps, order);
    if (session.expiresAt.getTime() > deps.orders.clock.now() || tried === MAX_SESSION_IDS_PER_CHECKOUT) return session;
  }
}

async function nextSession(deps: RouteDeps, order: MerchantOrder): Promise<OrderSession> {
  const charge = orderCharge(order);
  const decision = await decideNextAttempt(deps, charge, 'hosted');
  if (decision.next === 'paid') throw orderRefusals.alreadyPaid();
  if (decision.next === 'pending') throw orderRefusals.pending(decision.retryAfterSeconds);
  if (decision.next === 'reuse') {
    const { checkoutUrl, expiresAt, attempt } = decision;
    return {
      checkoutUrl,
      expiresAt: new Date(expiresAt),
      transactionRequestId: attempt.transactionRequestId,
      ...(attempt.sessionId === undefined ? {} : { sessionId: attempt.sessionId }),
      reused: true,
    };
  }
  const session = await withInvalidOrderAs500(deps, order, () => {
    const merchantReturnUrl = urlFor(deps.merchantReturnUrl, order, order.merchantReturnUrl);
    return sendAttempt(
      deps.orders,
      decision,
      { charge, kind: 'hosted' },
      (transactionRequestId) =>
        deps.client.createCheckoutSession({
          referenceOrderId: order.referenceOrderId,
          amount: order.amount,
          description: order.description,
          transactionRequestId,
          ...(order.productList ? { productList: order.productList } : {}),
          ...(merchantReturnUrl !== undefined ? { merchantReturnUrl } : {}),
          ...callbackUrls(deps, order),
        }),
      (created) => ({
        // An expiresAt already past: the service answered this id with a session it opened before, now over.
        state: created.expiresAt.getTime() > deps.orders.clock.now() ? 'open' : 'closed',
        checkoutUrl: created.checkoutUrl,
        expiresAt: created.expiresAt.getTime(),
        ...(created.sessionId === undefined ? {} : { sessionId: created.sessionId }),
      }),
    );
  });
  return { ...session, reused: false };
}

/** POST /checkout: `{ orderId }` → a hosted checkout session for the server-side order. */
export async function checkoutRoute(req: NeutralRequest, deps: RouteDeps): Promise<NeutralResponse> {
  const { kind, fields } = await readRequestBody(req, { accept: ['json', 'form'], limitBytes: deps.bodyLimitBytes });
  checkFormOrigin(req, kind, deps.allowedOrigins);
  const { orderId } = validate(checkoutRequestSchema, fields, 'checkout request');
  const order = await lookUpPayableOrder(deps, orderId, 'checkout', req);
  const session = await underOrderLock(deps.orders, order.referenceOrderId, () => sessionFor(deps, order));
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
