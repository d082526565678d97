import { PaymentErrorCode } from '../error-codes';
import type { BodyKind } from './body';
import type { NeutralHeaders, NeutralRequest } from './neutral-http';
import { PaymentRouteError } from './route-error';

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Whether `origin` is the request's own: its host is the Host (or, behind a proxy, X-Forwarded-Host) the browser sent. */
export function isOwnOrigin(origin: string, headers: NeutralHeaders): boolean {
  const host = URL.parse(origin)?.host;
  if (!host) return false;
  const forwarded = single(headers['x-forwarded-host'])?.split(',', 1)[0]?.trim();
  return [single(headers.host), forwarded].some((value) => value?.toLowerCase() === host);
}

/**
 * The CSRF defence of the checkout form: a form post must come from the app's
 * own origin or from one of `allowedOrigins`. A JSON body needs no check: a page
 * on another site cannot send one without a CORS preflight, which the routes
 * never grant.
 *
 * `Sec-Fetch-Site`, which current browsers send and no page can set, decides
 * when present (`same-origin`, or `none` for a user's own navigation). Without
 * it, `Origin` must be the request's own host. A request with neither header
 * is let through: it comes from no browser a cross-site page can drive today
 * (curl, a server, a browser older than 2020 that sends no Origin on POST).
 */
export function checkFormOrigin(req: NeutralRequest, kind: BodyKind, allowedOrigins: ReadonlySet<string>): void {
  if (kind !== 'form') return;
  const origin = single(req.headers.origin);
  const site = single(req.headers['sec-fetch-site'])?.toLowerCase();
  if (origin !== undefined && allowedOrigins.has(origin)) return;
  const sameOrigin = site !== undefined ? site === 'same-origin' || site === 'none' : origin === undefined || isOwnOrigin(origin, req.headers);
  if (sameOrigin) return;
  throw new PaymentRouteError(403, PaymentErrorCode.CROSS_SITE_FORM_POST, 'A checkout form posted from another site is refused.', {
    details: { origin, secFetchSite: site },
    fix: 'if that origin is your own storefront, list it in the allowedOrigins option',
  });
}
