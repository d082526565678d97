import type { H3Event } from 'h3';

/** A Nitro catch-all route's pattern: `[...].ts` is `/payments/**`, `[...slug].ts` is `/payments/**:slug`. */
const CATCH_ALL = /\/\*\*(?::(\w+))?$/;

/** What the log says when the handler serves a route without a catch-all segment. */
export const CATCH_ALL_FIX =
  'export the handler from a catch-all route, e.g. server/routes/payments/[...].ts: the mount path is read from the segments it matches';

/**
 * Where the route file sits, read from the request Nitro routed to it: its
 * plainly spelled path as sent (`rawPath`, the app's `baseURL` included)
 * minus what its catch-all matched. The
 * file's location is the one source of the mount path, so moving the file
 * needs no option kept in step with it. Undefined when the route is not a
 * catch-all.
 */
export function mountPathOf(event: H3Event, rawPath: string): string | undefined {
  const pattern = (event.context['matchedRoute'] as { path?: string } | undefined)?.path;
  const catchAll = pattern === undefined ? null : CATCH_ALL.exec(pattern);
  if (catchAll === null) return undefined;
  const below = event.context.params?.[catchAll[1] ?? '_'] ?? '';
  if (below === '') return rawPath.replace(/\/+$/, '');
  return rawPath.endsWith(`/${below}`) ? rawPath.slice(0, rawPath.length - below.length - 1) : undefined;
}
