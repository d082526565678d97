import type { H3Event } from 'h3';
import { rawPathOf } from '@paymount/core/http';

/** A Nitro catch-all route's pattern: `[...].ts` is `/payments/**`, `[...slug].ts` is `/payments/**:slug`. */
const CATCH_ALL = /\/\*\*(?::(\w+))?$/;

/** What the log says when the handler serves a route without a catch-all segment. */
export const CATCH_ALL_FIX =
  'export the handler from a catch-all route, e.g. server/routes/payments/[...].ts: the mount path is read from the segments it matches';

/**
 * Where the route file sits, read from the request Nitro routed to it: the
 * path as sent (app `baseURL` included) minus what its catch-all matched. The
 * file's location is the one source of the mount path, so moving the file
 * needs no option kept in step with it. Undefined when the route is not a
 * catch-all. A disguised spelling below the mount stays in what
 * `pathUnderMount` then refuses.
 */
export function mountPathOf(event: H3Event): string | undefined {
  const pattern = (event.context['matchedRoute'] as { path?: string } | undefined)?.path;
  const catchAll = pattern === undefined ? null : CATCH_ALL.exec(pattern);
  if (catchAll === null) return undefined;
  const below = event.context.params?.[catchAll[1] ?? '_'] ?? '';
  const path = rawPathOf(event.node.req.originalUrl ?? event.path);
  if (below === '') return path.replace(/\/+$/, '');
  return path.endsWith(`/${below}`) ? path.slice(0, path.length - below.length - 1) : undefined;
}
