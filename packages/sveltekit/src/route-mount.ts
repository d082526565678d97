/** A route id's segment that is a rest parameter, `[...paymount]` (with or without a matcher). */
const REST_PARAMETER = /^\[\.\.\.[^\]]+\]$/;
/** A route id's segment that names a group, `(shop)`: it is no part of the URL. */
const GROUP = /^\(.*\)$/;

/**
 * Where the payment routes are mounted, read from the id of the route SvelteKit
 * matched: its segments before the final rest parameter, groups left out.
 * `src/routes/payments/[...paymount]/+server.ts` has the id
 * `/payments/[...paymount]` and serves the routes under `/payments`. The file's
 * location is the one source of the mount path, so moving it needs no option
 * kept in step. Undefined when the id does not end in a rest parameter, or a
 * parameter comes before it (its value is not in the id; give `mountPath`).
 *
 * The mount is the route as written, never the URL as sent: a request whose
 * path only decodes to it (`/pay%6dents/checkout`) is not under it.
 */
export function mountPathOfRoute(routeId: string | null): string | undefined {
  if (routeId === null) return undefined;
  const segments = routeId.split('/').filter((segment) => segment !== '' && !GROUP.test(segment));
  const last = segments.pop();
  if (last === undefined || !REST_PARAMETER.test(last) || segments.some((segment) => segment.includes('['))) return undefined;
  return segments.map((segment) => `/${segment}`).join('');
}

/** Whether `pathname`, decoded as SvelteKit decodes it to route, is at or under `mountPath`. */
export function routedUnder(pathname: string, mountPath: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURI(pathname);
  } catch {
    decoded = pathname;
  }
  return decoded === mountPath || decoded.startsWith(`${mountPath}/`);
}

/** What the log says when the route's id gives no mount path. */
export const ROUTE_FIX =
  'export the handlers from a rest-parameter route with no other parameter before it, e.g. src/routes/payments/[...paymount]/+server.ts, ' +
  "or give the mount path: paymentHandlers(options, { mountPath: '/payments' })";

/** What the log says when the route serves a path outside the mount read from its id (a `paths.base`, a rewrite in `reroute`). */
export const BASE_FIX =
  "with `kit.paths.base` set (or a `reroute` hook moving the route), give the mount path as the browser sends it: paymentHandlers(options, { mountPath: `${base}/payments` }), base from '$app/paths'";
