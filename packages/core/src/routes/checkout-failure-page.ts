import { errorResponse, type ErrorRender } from './errors-to-response';
import { isOwnOrigin } from './form-origin';
import type { NeutralHeaders, NeutralRequest } from './neutral-http';

const FORM_MEDIA_TYPES: ReadonlySet<string> = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/** The q-value `accept` gives `type` (`text/html`): its own entry, else its family's (`text/*`), else `*\/*`, else 0. */
function qualityOf(accept: string, type: string): number {
  const family = `${type.split('/', 1)[0]}/*`;
  const found = new Map<string, number>();
  for (const entry of accept.split(',')) {
    const [range = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    if (range && !found.has(range)) found.set(range, Number.isFinite(quality) ? quality : 0);
  }
  return found.get(type) ?? found.get(family) ?? found.get('*/*') ?? 0;
}

/**
 * A shopper's browser submitting the checkout form: a form body, and an Accept
 * that prefers a page to JSON (every browser's navigation does). A script
 * posting a form with `Accept: application/json`, or none, keeps JSON.
 */
export function isBrowserFormPost(headers: NeutralHeaders): boolean {
  const mediaType = headerText(headers['content-type'])?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType === undefined || !FORM_MEDIA_TYPES.has(mediaType)) return false;
  const accept = headerText(headers.accept) ?? '';
  return qualityOf(accept, 'text/html') > qualityOf(accept, 'application/json');
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made inert in HTML, in an element or a quoted attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/**
 * Where "Back to the shop" leads: the page the form was on when the browser
 * says it is this site's (a same-origin Referer), else the site's root. A
 * Referer of another site is never linked to, so the page cannot send a
 * shopper away to whoever posted the form.
 */
function backLink(headers: NeutralHeaders): string {
  const referer = headerText(headers.referer);
  const url = referer === undefined ? undefined : URL.parse(referer);
  if (url && (url.protocol === 'https:' || url.protocol === 'http:') && isOwnOrigin(url.origin, headers)) return url.href;
  return '/';
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // Nothing on the page loads or runs: no script, no style sheet, no frame of it elsewhere.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
} as const;

/**
 * A failed checkout as the page a shopper's browser shows instead of raw JSON:
 * the same status and message the JSON error carries (written for the browser:
 * never a key, never the server's details), and a way back to the shop.
 */
function failurePage(headers: NeutralHeaders): ErrorRender {
  return (status, error, extraHeaders = {}) => {
    const reference = error.traceId ? `<p>Reference: <code>${escapeHtml(error.traceId)}</code></p>` : '';
    const body =
      '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<title>Payment could not start</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style></head>' +
      `<body><main><h1>Payment could not start</h1><p id="message">${escapeHtml(error.message)}</p>` +
      `<p><a id="back" href="${escapeHtml(backLink(headers))}">Back to the shop</a></p>` +
      `${reference}<p><small>${escapeHtml(error.code)}</small></p></main></body></html>\n`;
    return { status, headers: { ...extraHeaders, ...PAGE_HEADERS }, body };
  };
}

/** How POST /checkout answers a failure: a page for a shopper's browser form post, the JSON error for everyone else. */
export function checkoutFailureRender(req: NeutralRequest): ErrorRender {
  return isBrowserFormPost(req.headers) ? failurePage(req.headers) : errorResponse;
}
