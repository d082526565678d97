import type { IncomingMessage } from 'node:http';
import { headerValue } from '../http-io';
import { ownOrigin } from '../own-origin';

/**
 * Who sent a form post to the hosted page, when it was not the page itself:
 * the posting site as the browser names it, or undefined for the page's own
 * forms. A page on another site that knows a session id could otherwise pay
 * or cancel it with a plain form (which needs no CORS preflight).
 *
 * `Sec-Fetch-Site`, which current browsers send and no page can set, decides
 * when present: only `same-origin` is the page's own form. Without it (an
 * older browser), `Origin` must be the sandbox's own; `null`, which a
 * sandboxed frame or a page without a referrer sends, is no proof of it. A
 * request with neither header comes from no browser (curl, a test's HTTP
 * client) and passes.
 */
export function crossSiteSender(req: IncomingMessage): string | undefined {
  const site = headerValue(req, 'sec-fetch-site')?.toLowerCase();
  const origin = headerValue(req, 'origin');
  const own = ownOrigin(req);
  const fromOwnPage = site !== undefined ? site === 'same-origin' : origin === undefined || (own !== undefined && URL.parse(origin)?.origin === own);
  if (fromOwnPage) return undefined;
  return origin !== undefined && origin !== 'null' ? origin.slice(0, 100) : 'a page on another site';
}
