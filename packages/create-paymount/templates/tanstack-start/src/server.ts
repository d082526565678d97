import { createHash } from 'node:crypto';
import { createStartHandler, defaultStreamHandler } from '@tanstack/react-start/server';
import { ConfigError } from './config.js';
import { createRouter } from './router';
import { shop } from './shop.js';
import type { PageWallet } from './shop-services.js';

const render = createStartHandler({ createRouter })(defaultStreamHandler);

// The server loads this entry on its first request, which waits for the shop: nothing is served without it.
const { wallet } = await shop().catch((error: unknown) => {
  // A setting's problem is the whole message; anything else keeps its stack. Either way the shop cannot run.
  console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
  process.exit(1);
});

const INLINE_SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/g;

/**
 * Scripts only from the shop, the wallet and the page itself: a page that handles a wallet token runs
 * nothing else. `<Scripts />` inlines the router's hydration data and TanStack Start 1.131 has no nonce
 * option; each inline script of the page is allowed by its hash. (A nonce would not do: the router, once
 * hydrated, adds its entry script again when the one in the page has a nonce it cannot see.)
 */
function underPolicy(html: string, status: number, headers: Headers, pageWallet: PageWallet): Response {
  const walletOrigin = new URL('sandbox' in pageWallet ? pageWallet.sandbox : pageWallet.scriptUrl).origin;
  const hashes = new Set([...html.matchAll(INLINE_SCRIPT)].map(([, script]) => `'sha256-${createHash('sha256').update(script!).digest('base64')}'`));
  headers.set(
    'content-security-policy',
    `default-src 'none'; script-src 'self' ${[...hashes].join(' ')} ${walletOrigin}; connect-src 'self' ${walletOrigin}; frame-src ${walletOrigin}; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
  );
  headers.delete('content-length');
  return new Response(html, { status, headers });
}

export default async function handler({ request }: { request: Request }): Promise<Response> {
  const response = await render({ request });
  if (!response.headers.get('content-type')?.startsWith('text/html')) return response;
  return underPolicy(await response.text(), response.status, new Headers(response.headers), wallet);
}
