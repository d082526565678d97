// React Router's own app/entry.server.tsx (`npx react-router reveal`, 7.18), with the pages' Content Security
// Policy: scripts only from the shop and the wallet, and React Router's inline scripts by this response's nonce.
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';

import type { EntryContext, RouterContextProvider } from 'react-router';
import { createReadableStreamFromReadable } from '@react-router/node';
import { ServerRouter } from 'react-router';
import { isbot } from 'isbot';
import type { RenderToPipeableStreamOptions } from 'react-dom/server';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceContext } from './nonce';
import { shop } from './shop.server';

export const streamTimeout = 5_000;

/** A page that handles a wallet token runs nothing but the shop's scripts and the wallet's. */
function contentSecurityPolicy(nonce: string, walletOrigin: string): string {
  return [
    `default-src 'none'`,
    `script-src 'self' 'nonce-${nonce}' ${walletOrigin}`,
    `connect-src 'self' ${walletOrigin}`,
    `frame-src ${walletOrigin}`,
    // Vite's development server puts each stylesheet in a <style> of its own.
    import.meta.env.DEV ? `style-src 'self' 'unsafe-inline'` : `style-src 'self'`,
    `img-src 'self'`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: RouterContextProvider,
): Promise<Response> {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }

  const { wallet } = (await shop()).services;
  const nonce = randomBytes(16).toString('base64');
  responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce, new URL('sandbox' in wallet ? wallet.sandbox : wallet.scriptUrl).origin));

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');

    // Ensure requests from bots and SPA Mode renders wait for all content to load before responding
    // https://react.dev/reference/react-dom/server/renderToPipeableStream#waiting-for-all-content-to-load-for-crawlers-and-static-generation
    const readyOption: keyof RenderToPipeableStreamOptions = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';

    // Abort the rendering stream after the `streamTimeout` so it has time to
    // flush down the rejected boundaries
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              // Clear the timeout to prevent retaining the closure and memory leak
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);

          responseHeaders.set('Content-Type', 'text/html');

          pipe(body);

          resolve(
            new Response(stream, {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Log streaming rendering errors from inside the shell.  Don't log
          // errors encountered during initial shell rendering since they'll
          // reject and get logged in handleDocumentRequest.
          if (shellRendered) {
            console.error(error);
          }
        },
      },
    );
  });
}
