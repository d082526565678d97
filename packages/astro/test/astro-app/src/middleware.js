import { defineMiddleware } from 'astro:middleware';
// tools/browser-testing's, copied into the app as it is put together (test/support/test-app.ts).
import { strictCsp } from '../strict-csp.ts';
import { walletSource } from './wallet-source.ts';

/**
 * The strict policy the shop serves its pages under (test/wallet-button.test.ts), the other browser tests' own:
 * nothing inline, no eval; scripts, fetches and form posts only to its own origin and the sandbox's.
 */
async function contentSecurityPolicy() {
  const wallet = await walletSource();
  return strictCsp('sandbox' in wallet ? wallet.sandbox : undefined);
}

// The app's own middleware, as a shop writes it, on the test's mounts of the README's endpoints (test/astro-app.test.ts):
// under /context it puts the shopper's cart in `locals`, under /body-read it reads every POST's body as JSON, taking it.
// Its pages with wallet buttons (the guide's order page, the fixture's several buttons) get the policy above.
export const onRequest = defineMiddleware(async (context, next) => {
  if (context.url.pathname.startsWith('/context/')) context.locals.cartCents = 4321;
  if (context.url.pathname.startsWith('/body-read/') && context.request.method === 'POST') await context.request.json().catch(() => undefined);
  const response = await next();
  if (/^\/(orders|several)\//.test(context.url.pathname)) response.headers.set('content-security-policy', await contentSecurityPolicy());
  return response;
});
