import { defineMiddleware } from 'astro:middleware';

// The app's own middleware, as a shop writes it, on the test's mounts of the README's endpoints (test/astro-app.test.ts):
// under /context it puts the shopper's cart in `locals`, under /body-read it reads every POST's body as JSON, taking it.
export const onRequest = defineMiddleware(async (context, next) => {
  if (context.url.pathname.startsWith('/context/')) context.locals.cartCents = 4321;
  if (context.url.pathname.startsWith('/body-read/') && context.request.method === 'POST') await context.request.json().catch(() => undefined);
  return next();
});
