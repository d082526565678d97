import { validate } from '../validation';
import { readRequestBody } from './body';
import { jsonResponse } from './errors-to-response';
import { checkFormOrigin } from './form-origin';
import type { NeutralRequest, NeutralResponse } from './neutral-http';
import { unlessRefused } from './order-refusals';
import { checkoutRequestSchema } from './request-schemas';
import { callbackUrls, withInvalidOrderAs500, lookUpOrder, urlFor, type RouteDeps } from './route-deps';

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
