import type { IncomingMessage, ServerResponse } from 'node:http';
import { notifyCharge, recordCharge } from '../charging';
import { readBody, redirect, sendText } from '../http-io';
import type { Address } from '../ledger';
import { ADDITIONAL_3DS_DECLINE, outcomeForTotal } from '../outcomes';
import { payableTotal } from '../rules/fields';
import type { CheckoutSessionRecord } from '../sessions';
import type { SandboxState } from '../state';
import { crossSiteSender } from './form-origin';
import { ADDRESS_FIELDS, renderCheckoutPage, renderNoticePage, type NoticeKind } from './render';

const FORM_LIMIT_BYTES = 16_384;
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  // No referrer leaves the sandbox (the session id is in the URL), while its own form posts keep their Origin for older browsers (see crossSiteSender).
  'referrer-policy': 'same-origin',
};

type ReturnStatus = 'succeeded' | 'failed' | 'cancelled';

function sendPage(res: ServerResponse, status: number, text: string): void {
  sendText(res, status, 'text/html; charset=utf-8', text, PAGE_HEADERS);
}

/** merchantReturnUrl with `referenceOrderId`, `transactionRequestId` and `status` added to its query. */
export function returnUrlFor(session: CheckoutSessionRecord, status: ReturnStatus): string | undefined {
  const base = session.request.merchantReturnUrl;
  if (base === undefined) return undefined;
  const url = new URL(base);
  url.searchParams.set('referenceOrderId', session.request.referenceOrderId);
  url.searchParams.set('transactionRequestId', session.request.transactionRequestId);
  url.searchParams.set('status', status);
  return url.toString();
}


function addressFrom(form: URLSearchParams, kind: 'billing' | 'shipping'): { address: Address; missing: string[] } {
  const address: Record<string, string> = {};
  const missing: string[] = [];
  for (const field of ADDRESS_FIELDS) {
    const value = form.get(`${kind}_${field}`)?.trim() ?? '';
    if (value === '' || value.length > 128 || (field === 'country' && !/^[A-Za-z]{2}$/.test(value))) missing.push(`${kind} ${field}`);
    else address[field] = value;
  }
  return { address, missing };
}

/**
 * The hosted checkout: `GET /hosted/checkout/:id` (the page), `POST …/pay` and
 * `POST …/cancel` (its two forms). A session is paid at most once; an expired
 * one is shown as such and cannot be paid.
 */
export function createHostedPageRoutes(state: SandboxState) {
  const { merchantName } = state;

  function notice(res: ServerResponse, status: number, kind: NoticeKind, title: string, message: string, returnUrl?: string): void {
    sendPage(res, status, renderNoticePage({ kind, title, message, merchantName, ...(returnUrl ? { returnUrl } : {}) }));
  }

  /** Back to the shop's merchantReturnUrl with the outcome, or the outcome on a page when the session has none. */
  function finish(res: ServerResponse, session: CheckoutSessionRecord, status: ReturnStatus, title: string, message: string): void {
    const location = returnUrlFor(session, status);
    if (location) redirect(res, location);
    else notice(res, 200, status === 'succeeded' ? 'paid' : status, title, message);
  }

  /** The session when it can still be paid or cancelled; otherwise answers the page that says why, and returns undefined. */
  function usable(res: ServerResponse, sessionId: string): CheckoutSessionRecord | undefined {
    const session = state.sessions.get(sessionId, state.clock.now());
    if (!session) {
      notice(res, 404, 'missing', 'Checkout not found', 'This checkout session does not exist. Please return to the shop and start again.');
    } else if (session.state === 'expired') {
      const returnUrl = returnUrlFor(session, stateToStatus(session));
      notice(res, 410, 'expired', 'Checkout expired', 'This checkout session has expired and can no longer be paid. Please return to the shop and start again.', returnUrl);
    } else if (session.state !== 'open') {
      const returnUrl = returnUrlFor(session, stateToStatus(session));
      notice(res, 409, session.state, 'Checkout already completed', `This checkout session is already ${session.state}.`, returnUrl);
    } else {
      return session;
    }
    return undefined;
  }

  async function pay(req: IncomingMessage, res: ServerResponse, session: CheckoutSessionRecord): Promise<void> {
    const form = new URLSearchParams((await readBody(req, FORM_LIMIT_BYTES)).toString('utf8'));
    const { request } = session;
    const billing = request.collectBillingAddress ? addressFrom(form, 'billing') : undefined;
    const shipping = request.collectShippingAddress ? addressFrom(form, 'shipping') : undefined;
    const missing = [...(billing?.missing ?? []), ...(shipping?.missing ?? [])];
    if (missing.length > 0) {
      const error = `Please fill in: ${missing.join(', ')}.`;
      sendPage(res, 400, renderCheckoutPage(session, { merchantName, error, values: Object.fromEntries(form) }));
      return;
    }
    // The form was read asynchronously: the session may have been paid or have expired meanwhile.
    if (!usable(res, session.sessionId)) return;
    const outcome = form.get('testCard') === 'additional-3ds' ? ADDITIONAL_3DS_DECLINE : outcomeForTotal(payableTotal(request.amount));
    const charge = recordCharge(state, {
      channel: 'hosted-checkout',
      environment: session.environment,
      transactionRequestId: request.transactionRequestId,
      referenceOrderId: request.referenceOrderId,
      amount: request.amount,
      outcome,
      description: request.description,
      authMethod: 'CRYPTOGRAM_3DS',
      transactionId: session.transactionId,
      ...(billing ? { billingAddress: billing.address } : {}),
      ...(shipping ? { shippingAddress: shipping.address } : {}),
    });
    state.sessions.settle(session, charge.transactionStatus === 'S', state.clock.now());
    notifyCharge(state, request.notifyUrl, charge, { sessionId: session.sessionId });
    if (charge.transactionStatus === 'S') finish(res, session, 'succeeded', 'Payment successful', 'Your payment was successful.');
    else finish(res, session, 'failed', 'Payment failed', `Your payment failed: ${charge.reason?.message ?? 'declined'}.`);
  }

  function cancel(res: ServerResponse, session: CheckoutSessionRecord): void {
    state.sessions.close(session, 'cancelled', state.clock.now(), { code: 'CANCELLED', message: 'cancelled by the customer' });
    finish(res, session, 'cancelled', 'Payment cancelled', 'You cancelled the payment.');
  }

  /** Handles `/hosted/…` paths; false when the path is not one of them. */
  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const match = /^\/hosted\/checkout\/([A-Za-z0-9_]+)(?:\/(pay|cancel))?$/.exec(path);
    if (!match) return false;
    const [, sessionId = '', action] = match;
    const expectedMethod = action ? 'POST' : 'GET';
    if (req.method !== expectedMethod && !(expectedMethod === 'GET' && req.method === 'HEAD')) {
      res.writeHead(405, { allow: expectedMethod, 'content-length': 0 });
      res.end();
      return true;
    }
    const sender = action ? crossSiteSender(req) : undefined;
    if (sender !== undefined) {
      notice(
        res,
        403,
        'refused',
        'Payment form refused',
        `This checkout's buttons work from its own page only, and this form came from ${sender}. Nothing was paid or cancelled: open the checkout page from the shop and press its buttons there.`,
      );
      return true;
    }
    const session = usable(res, sessionId);
    if (!session) return true;
    if (action === 'pay') await pay(req, res, session);
    else if (action === 'cancel') cancel(res, session);
    else sendPage(res, 200, renderCheckoutPage(session, { merchantName }));
    return true;
  }

  return { handle };
}

function stateToStatus(session: CheckoutSessionRecord): ReturnStatus {
  if (session.state === 'paid') return 'succeeded';
  return session.state === 'cancelled' ? 'cancelled' : 'failed';
}
