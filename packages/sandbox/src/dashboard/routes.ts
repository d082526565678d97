import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expireSession } from '../api/expire-session';
import { SandboxRefusal } from '../envelope';
import { headerValue, queryParameters, readBody, redirect, sendJson, sendText } from '../http-io';
import type { SandboxState } from '../state';
import { trigger } from '../trigger';
import { renderDashboardPage, renderSections } from './render';
import { checkSameOrigin } from './same-origin';
import { dashboardScript } from './script';
import { dashboardSnapshot } from './snapshot';

export const DASHBOARD_PATH = '/sandbox/dashboard';
const DATA_PATH = `${DASHBOARD_PATH}/data`;
const SCRIPT_PATH = `${DASHBOARD_PATH}/app.js`;
const FORM_LIMIT_BYTES = 16_384;

const PAGE_HEADERS = {
  // Scripts from the sandbox itself only: even a value that escaped escaping could not run.
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Same-origin form posts then carry the page's Origin, which the buttons' routes check.
  'referrer-policy': 'same-origin',
};

/** What each button did, shown on the page it comes back to. */
const DONE: Readonly<Record<string, string>> = {
  resent: 'Delivery resent: the new delivery is at the top of the list.',
  triggered: 'Event triggered: its delivery is at the top of the list.',
  expired: 'Session expired: its payment.closed webhook is on its way.',
};

type Action = (form: URLSearchParams, id: string) => string;

/** The filter as the query strings see it: an empty field is no filter. */
function orderIdOf(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function pageLocation(orderId: string | undefined, done: string): string {
  const query = new URLSearchParams(orderId === undefined ? { done } : { orderId, done });
  return `${DASHBOARD_PATH}?${query}`;
}

/** A form field, absent when left empty. */
function field(form: URLSearchParams, name: string): string | undefined {
  const value = form.get(name)?.trim();
  return value ? value : undefined;
}

function refusalText(refusal: SandboxRefusal): string {
  const issues = (refusal.data.issues as Array<{ message?: string }> | undefined) ?? [];
  const details = issues.map((issue) => issue.message).filter((message) => message !== undefined && message !== refusal.message);
  return [`${refusal.code}: ${refusal.message}`, ...details].join('; ');
}

/**
 * The sandbox dashboard under `/sandbox/dashboard`: a server-rendered page of
 * sessions, payments, refunds and webhook deliveries (each attempt with why
 * it failed), its JSON (`/data`, what the page's script polls), and the forms
 * of its buttons (resend, trigger, expire). The control routes' guards run
 * first (caller, Host); the buttons also need the sandbox's own Origin.
 */
export function createDashboardRoutes(state: SandboxState) {
  const actions: Readonly<Record<string, Action>> = {
    resend: (_form, deliveryId) => {
      state.deliverer.resend(deliveryId);
      return 'resent';
    },
    expire: (_form, sessionId) => {
      const session = state.sessions.get(sessionId, state.clock.now());
      if (!session) throw new SandboxRefusal('H01', 'no checkout session with this sessionId');
      const { appId, merchantId } = state.credentials;
      expireSession(state, session.environment, { appId, merchantId, sessionId, reason: 'expired from the sandbox dashboard' });
      return 'expired';
    },
    trigger: (form) => {
      const amount = field(form, 'amount');
      const orderId = field(form, 'referenceOrderId');
      trigger(state, {
        event: form.get('event') ?? '',
        forwardTo: form.get('forwardTo')?.trim() ?? '',
        ...(amount === undefined ? {} : { amount: /^\d+$/.test(amount) ? Number(amount) : amount }),
        ...(orderId === undefined ? {} : { referenceOrderId: orderId }),
      });
      return 'triggered';
    },
  };

  function sections(orderId: string | undefined) {
    const snapshot = dashboardSnapshot(state, orderId);
    const html = renderSections(snapshot);
    const version = `"${createHash('sha256').update(JSON.stringify(html)).digest('base64url').slice(0, 22)}"`;
    return { snapshot, html, version };
  }

  function page(res: ServerResponse, status: number, orderId: string | undefined, notice?: { text: string; error: boolean }): void {
    const { snapshot, version } = sections(orderId);
    const forwardTo = state.deliverer.recent(1)[0]?.url;
    const text = renderDashboardPage(snapshot, {
      sandboxUrl: state.url,
      merchantId: state.credentials.merchantId,
      version,
      ...(notice ? { notice } : {}),
      ...(forwardTo ? { forwardTo } : {}),
    });
    sendText(res, status, 'text/html; charset=utf-8', text, PAGE_HEADERS);
  }

  function data(req: IncomingMessage, res: ServerResponse): void {
    const { snapshot, html, version } = sections(orderIdOf(queryParameters(req).orderId));
    if (headerValue(req, 'if-none-match') === version) {
      res.writeHead(304, { etag: version, 'cache-control': 'no-store' });
      res.end();
      return;
    }
    sendJson(res, 200, { snapshot, html }, { etag: version });
  }

  async function post(req: IncomingMessage, res: ServerResponse, name: string, id: string): Promise<void> {
    checkSameOrigin(req);
    const mediaType = headerValue(req, 'content-type')?.split(';', 1)[0]?.trim().toLowerCase();
    if (mediaType !== 'application/x-www-form-urlencoded') {
      throw new SandboxRefusal('A08', 'the dashboard buttons post forms: send Content-Type: application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams((await readBody(req, FORM_LIMIT_BYTES)).toString('utf8'));
    const orderId = orderIdOf(form.get('orderId'));
    const action = actions[name];
    if (!action) throw new SandboxRefusal('R04', `no dashboard action ${name}`);
    try {
      redirect(res, pageLocation(orderId, action(form, id)));
    } catch (error) {
      if (!(error instanceof SandboxRefusal)) throw error;
      // The page again, saying what was refused: the developer fixes the form and presses again.
      page(res, error.status, orderId, { text: `Refused: ${refusalText(error)}`, error: true });
    }
  }

  /** True for the paths this module answers. */
  function owns(path: string): boolean {
    return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
  }

  /** Answers a dashboard path, after the control routes' caller and Host checks; throws SandboxRefusal for anything else. */
  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? '');
    if (method === 'GET' && path === DASHBOARD_PATH) {
      const query = queryParameters(req);
      const done = query.done === undefined ? undefined : DONE[query.done];
      return page(res, 200, orderIdOf(query.orderId), done === undefined ? undefined : { text: done, error: false });
    }
    if (method === 'GET' && path === DATA_PATH) return data(req, res);
    if (method === 'GET' && path === SCRIPT_PATH) {
      return sendText(res, 200, 'text/javascript; charset=utf-8', dashboardScript(DATA_PATH), { 'x-content-type-options': 'nosniff' });
    }
    const action = /^\/sandbox\/dashboard\/(?:(trigger)|deliveries\/([^/]+)\/(resend)|sessions\/([^/]+)\/(expire))$/.exec(path);
    if (method === 'POST' && action) {
      const [, triggerName, deliveryId, resendName, sessionId, expireName] = action;
      return post(req, res, triggerName ?? resendName ?? expireName ?? '', deliveryId ?? sessionId ?? '');
    }
    throw new SandboxRefusal('R04', `no sandbox route ${req.method ?? ''} ${path}`);
  }

  return { owns, handle };
}
