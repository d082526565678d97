/**
 * Next.js awaits `register()` once per server start, before the first request: the shop starts then
 * (the embedded sandbox in development, the database), so a bad setting stops the server at once.
 */
export async function register() {
  // The shop needs Node.js (PGlite, pg, the sandbox's server): Next.js drops this branch from the
  // edge runtime's build, and `next build` starts nothing.
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    await (await import('./instrumentation-node')).startShop();
  }
}
