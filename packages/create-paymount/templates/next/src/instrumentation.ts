/**
 * Next.js awaits `register()` once per server start, before the first request: the shop starts here
 * (the embedded sandbox in development, the database), so a bad setting stops the server at once.
 */
export async function register() {
  // The shop needs Node.js (PGlite, pg, the sandbox's server); `next build` starts nothing.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { ConfigError } = await import('./config');
  const { shop } = await import('./shop');
  try {
    const running = await shop();
    console.log(`Shop:      ${running.url}`);
    if (running.sandbox) {
      console.log(`Dashboard: ${running.sandbox.dashboardUrl}   (the embedded sandbox: payments, webhooks, refunds)`);
      console.log(`Refunds:   ${running.url}/login (the staff password: STAFF_PASSWORD, "staff" when not set)`);
    }
    console.log(`Orders:    ${running.database}`);
  } catch (error) {
    // A setting's problem is the whole message; anything else keeps its stack.
    console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
    process.exit(1);
  }
}
