/** The last segment of an Astro route pattern when it is a rest parameter: `[...paymount]`, its name captured. */
const REST_SEGMENT = /\/\[\.\.\.([^\]]+)\]$/;

/**
 * Where the endpoint file sits, read from the request Astro routed to it: the
 * path minus the segments its rest parameter matched. The file's location is
 * the one source of the mount path, so moving the file (or setting `base`)
 * needs no option kept in step with it. Undefined when the route pattern
 * (`context.routePattern`) does not end in a rest parameter.
 *
 * The segments are cut from the path as sent (Astro matched the decoded one,
 * whose segments are the same: `decodeURI` leaves `%2F` alone), so a disguised
 * spelling below the mount stays in what `pathUnderMount` then refuses.
 */
export function mountPathOf(pathname: string, routePattern: string, params: Record<string, string | undefined>): string | undefined {
  const rest = REST_SEGMENT.exec(routePattern)?.[1];
  if (rest === undefined) return undefined;
  const matched = params[rest];
  // `/payments` itself: the rest parameter matched nothing, and no route is the mount path alone.
  if (matched === undefined) return pathname;
  const segments = pathname.split('/');
  const below = matched.split('/').length;
  return below < segments.length ? segments.slice(0, segments.length - below).join('/') : undefined;
}

/** What the log says when the endpoints serve a route whose last segment is not a rest parameter. */
export const REST_PARAMETER_FIX =
  'export the endpoints from a file whose last segment is a rest parameter, e.g. src/pages/payments/[...paymount].ts: the mount path is read from the segments it matches';
