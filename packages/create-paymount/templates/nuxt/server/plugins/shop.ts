import { randomBytes } from 'node:crypto';
import type { H3Event } from 'h3';
import { ConfigError } from '../../src/config.js';
import { announce, closeShopServices, keepReconciling } from '../../src/shop-services.js';

export default defineNitroPlugin((nitroApp) => {
  const started = startShop().then(
    (services) => {
      announce(services);
      return services;
    },
    (error: unknown) => {
      // A setting's problem is the whole message; anything else keeps its stack. Either way the shop cannot run.
      console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
      process.exit(1);
    },
  );

  // paymount's routes are made from a request's event: the first request's, for the shop's own use of them.
  let first: H3Event | undefined;
  nitroApp.hooks.hook('request', (event) => {
    if (first) return;
    first = event;
    keepReconciling(() => payments.getPaymentRoutes(event));
  });

  // Nuxt renders one inline script (its config): it runs by the page's nonce, and nothing else inline does.
  nitroApp.hooks.hook('render:html', (html, { event }) => {
    const nonce = randomBytes(16).toString('base64');
    event.context.cspNonce = nonce;
    for (const part of [html.head, html.bodyPrepend, html.body, html.bodyAppend]) {
      part.forEach((chunk, index) => (part[index] = chunk.replaceAll('<script', `<script nonce="${nonce}"`)));
    }
  });
  nitroApp.hooks.hook('render:response', async (response, { event }) => {
    const { wallet } = await started;
    const walletOrigin = new URL('sandbox' in wallet ? wallet.sandbox : wallet.scriptUrl).origin;
    // nuxt dev injects the styles inline and frames its devtools: allowed on the developer's machine only.
    const [devStyles, devFrames] = import.meta.dev ? [" 'unsafe-inline'", " 'self'"] : ['', ''];
    // Scripts only from the shop and the wallet: a page that handles a wallet token runs nothing else.
    response.headers = {
      ...response.headers,
      'content-security-policy': `default-src 'none'; script-src 'self' 'nonce-${String(event.context.cspNonce)}' ${walletOrigin}; connect-src 'self' ${walletOrigin}; frame-src ${walletOrigin}${devFrames}; style-src 'self'${devStyles}; img-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
    };
  });

  // Once the server has stopped taking requests (SIGTERM, SIGINT).
  nitroApp.hooks.hook('close', async () => {
    const services = await started;
    if (first) await closeShopServices(services, await payments.getPaymentRoutes(first));
  });
});
