import { defineMiddleware } from 'astro:middleware';
import { ConfigError } from './config.js';
import { shop } from './shop.js';

let stopped = false;

/** Every request sees the running shop in `locals`; its pages are served under a strict Content Security Policy. */
export const onRequest = defineMiddleware(async (context, next) => {
  try {
    context.locals.shop = await shop(context);
  } catch (error) {
    // A setting's problem is the whole message; anything else keeps its stack. Either way the shop cannot run.
    if (!stopped) console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
    stopped = true;
    process.exit(1);
  }
  const response = await next();
  if (response.headers.get('content-type')?.startsWith('text/html')) {
    const { wallet } = context.locals.shop;
    const walletOrigin = new URL('sandbox' in wallet ? wallet.sandbox : wallet.scriptUrl).origin;
    // Scripts only from the shop and the wallet: a page that handles a wallet token runs nothing else.
    response.headers.set(
      'content-security-policy',
      `default-src 'none'; script-src 'self' ${walletOrigin}; connect-src 'self' ${walletOrigin}; frame-src ${walletOrigin}; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
    );
  }
  return response;
});
