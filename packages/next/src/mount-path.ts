/** The dynamic segments Next.js hands a route handler: a catch-all one is an array. */
export type PaymentRouteParams = Record<string, string | string[] | undefined>;

/**
 * Where the route file sits, read from the request Next.js routed to it: the
 * path minus the segments its catch-all matched. The file's location is the
 * one source of the mount path, so moving the file (or a `basePath`) needs no
 * option kept in step with it. Undefined when the route has no catch-all
 * segment with at least one value.
 *
 * The segments are cut from the path as sent, so a disguised spelling below
 * the mount (`%2e`, `//`) stays in what `pathUnderMount` then refuses.
 */
export function mountPathOf(pathname: string, params: PaymentRouteParams): string | undefined {
  const catchAlls = Object.values(params).filter((value): value is string[] => Array.isArray(value));
  if (catchAlls.length !== 1 || catchAlls[0]!.length === 0) return undefined;
  const segments = pathname.split('/');
  const below = catchAlls[0]!.length;
  return below < segments.length ? segments.slice(0, segments.length - below).join('/') : undefined;
}

/** What the log says when the handlers serve a route without a catch-all segment. */
export const CATCH_ALL_FIX =
  'export the handlers from a catch-all route, e.g. app/payments/[...paymount]/route.ts: the mount path is read from the segments it matches';
