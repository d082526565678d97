/** The params TanStack Start hands a server route: a splat route's rest of the path is `_splat`. */
export type PaymentRouteParams = Record<string, string | undefined>;

/**
 * Where the route file sits, read from the request TanStack Start routed to
 * it: the path minus as many segments as its splat matched. The file's
 * location is the one source of the mount path, so moving the file needs no
 * option kept in step with it. Undefined on a route without a splat.
 *
 * Segments are counted, not characters: the splat is decoded, the path is as
 * sent, so a disguised spelling (`%2e`, `%2f`) stays in what `pathUnderMount`
 * then refuses.
 */
export function mountPathOf(pathname: string, params: PaymentRouteParams): string | undefined {
  const splat = params['_splat'];
  if (splat === undefined) return undefined;
  // The mount itself (`/payments`, `/payments/`): no payment route, answered 404 by the routes.
  if (splat === '') return pathname.replace(/\/$/, '');
  const segments = pathname.split('/');
  const below = splat.split('/').length;
  return below < segments.length ? segments.slice(0, segments.length - below).join('/') : undefined;
}

/** What the log says when the handlers serve a route without a splat. */
export const SPLAT_FIX =
  "serve the handlers from a splat route, e.g. src/routes/payments/$.ts with createServerFileRoute('/payments/$'): the mount path is read from the segments it matches";
