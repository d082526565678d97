import { pathUnderMount } from '@paymount/core/http';

/**
 * Where the resource route sits, read from the request React Router routed to
 * it: the path minus the segments its splat (`params['*']`, non-empty)
 * matched. The route's place in `app/routes.ts` (and a `basename`) is then
 * the one source of the mount path, with no option to keep in step with it.
 *
 * The segments are cut from the path as sent (React Router decodes the
 * splat), so a disguised spelling below the mount stays in what the routes
 * refuse. A mount spelled otherwise than plainly (`/pay%6dents`) gives
 * undefined: React Router matched it decoded, while a guard of the app may
 * match the path as sent, so no payment route answers under it.
 */
export function mountPathOf(pathname: string, splat: string): string | undefined {
  const segments = pathname.split('/');
  const below = splat.split('/').length;
  if (below >= segments.length) return undefined;
  const mountPath = segments.slice(0, segments.length - below).join('/');
  // The spellings the routes refuse below their mount, refused in it too.
  return mountPath === '' || pathUnderMount(mountPath, '') !== undefined ? mountPath : undefined;
}

/** What the log says when the loader and action serve a route without a splat. */
export const SPLAT_FIX =
  "export the loader and action from a splat route, e.g. `route('payments/*', 'routes/payments.$.ts')` in app/routes.ts: the mount path is read from the segments the splat matches";
