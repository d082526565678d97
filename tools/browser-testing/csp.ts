/**
 * The policy test pages are served under: scripts, fetches and form posts
 * only to the page's own origin and the sandbox's (its test wallet, its
 * hosted page), no inline script or style, no eval. A module of its own, with
 * no import, so a framework's test app (Astro's middleware) serves the same.
 */
export function strictCsp(sandboxUrl: string | undefined): string {
  const allowed = sandboxUrl === undefined ? "'self'" : `'self' ${new URL(sandboxUrl).origin}`;
  return [
    "default-src 'none'",
    `script-src ${allowed}`,
    `connect-src ${allowed}`,
    `form-action ${allowed}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
