/** A mount path in one spelling: no trailing slash, '' for the root. */
export function normalizeMountPath(mountPath: string | undefined): string {
  return (mountPath ?? '').replace(/\/+$/, '');
}

/**
 * What makes a path mean one thing to one layer of a stack and another to the
 * next: a `.` or `..` segment, an empty segment, a backslash, any
 * percent-escape. URL parsers resolve the first ones, some routers decode the
 * escapes (`%2e`, `%2f`, `%63`) before matching, while a merchant's
 * path-scoped guard may match the path as sent: no payment route is spelled
 * with any of them, so refusing them never refuses a route.
 */
const AMBIGUOUS_PATH = /\/\.{1,2}(?:\/|$)|\/\/|\\|%/;

/** The path of a request target as it arrived, neither decoded nor resolved: up to its query, host dropped from an absolute URL. */
export function rawPathOf(target: string): string {
  const path = target.split('?', 1)[0] ?? '';
  const authority = /^[a-z][a-z\d+.-]*:\/\/[^/]*/i.exec(path);
  return authority ? path.slice(authority[0].length) || '/' : path;
}

/**
 * The request path relative to `mountPath`, or undefined when the request is
 * outside it or its path below the mount is not spelled plainly (see
 * AMBIGUOUS_PATH). `rawPath` must be the path as the framework matched it,
 * before any decoding or resolving (`rawPathOf(req.url)`): then the route
 * served is the one every middleware before it saw.
 */
export function pathUnderMount(rawPath: string, mountPath: string): string | undefined {
  const below = belowMount(rawPath, mountPath);
  return below !== undefined && below.startsWith('/') && !AMBIGUOUS_PATH.test(below) ? below : undefined;
}

function belowMount(path: string, mountPath: string): string | undefined {
  if (mountPath === '') return path;
  if (path === mountPath) return '/';
  return path.startsWith(`${mountPath}/`) ? path.slice(mountPath.length) : undefined;
}

export function isPaymentRoutes<H extends { handle: unknown }>(value: H | object): value is H {
  return typeof (value as Partial<H>).handle === 'function';
}
