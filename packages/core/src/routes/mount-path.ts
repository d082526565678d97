/** A mount path in one spelling: no trailing slash, '' for the root. */
export function normalizeMountPath(mountPath: string | undefined): string {
  return (mountPath ?? '').replace(/\/+$/, '');
}

/** The request path relative to `mountPath`, or undefined when the request is outside it. */
export function pathUnderMount(pathname: string, mountPath: string): string | undefined {
  if (mountPath === '') return pathname;
  if (pathname === mountPath) return '/';
  return pathname.startsWith(`${mountPath}/`) ? pathname.slice(mountPath.length) : undefined;
}

export function isPaymentRoutes<H extends { handle: unknown }>(value: H | object): value is H {
  return typeof (value as Partial<H>).handle === 'function';
}
