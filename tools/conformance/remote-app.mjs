// @ts-check
// The conformance suite's options rebuilt inside another runtime (Bun, Deno,
// workerd, the Next.js edge runtime) from the description `remote.ts` sends:
// the data as given, every function a call over HTTP to the suite's bridge on
// Node, which runs the suite's own. Plain JavaScript importing nothing, so
// each runtime loads it as it is.

/** @typedef {import('./remote').RemoteRouteDescription} RemoteRouteDescription */

/**
 * @param {string} bridgeUrl
 * @param {string} call
 * @param {unknown} body
 */
async function bridge(bridgeUrl, call, body) {
  const response = await fetch(`${bridgeUrl}/${call}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(text);
  return JSON.parse(text);
}

/**
 * The routes' options for `description`, and `settled()`, which resolves once
 * every log line written so far has reached the suite: an app awaits it
 * before answering, so a case reading the log after its answer finds the line
 * (and a Worker's pending fetches are not cut off with the request).
 * `origin` is the app's own origin, for `notifyUrl`: the routes' own webhook
 * route, as the suite's options say, wherever the runtime serves it.
 *
 * @param {RemoteRouteDescription} description
 * @param {() => string} origin
 */
export function remoteRouteOptions(description, origin) {
  const { bridgeUrl, mountPath } = description;
  /** @type {Promise<unknown>[]} */
  let logging = [];
  /** @param {'debug' | 'info' | 'warn' | 'error'} level */
  const write = (level) => (/** @type {object | string} */ objOrMsg, /** @type {string | undefined} */ msg) => {
    logging.push(bridge(bridgeUrl, 'log', { level, objOrMsg, msg }).catch(() => {}));
  };
  // The description's data is what the suite's options held: the routes' own checks run on it here.
  /** @type {import('@paymount/core').PaymentRoutesOptions} */
  const options = /** @type {any} */ ({
    ...description.options,
    client: description.client,
    resolveOrder: async (/** @type {string} */ orderId) => (await bridge(bridgeUrl, 'resolve-order', { orderId })).order,
    notifyUrl: () => `${origin()}${mountPath}/webhook`,
    logger: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') },
    on: {
      '*': async (/** @type {unknown} */ event) => {
        await bridge(bridgeUrl, 'event', event);
      },
    },
  });
  return {
    options,
    async settled() {
      while (logging.length > 0) {
        const pending = logging;
        logging = [];
        await Promise.all(pending);
      }
    },
  };
}

/**
 * An app built by `build` from the routes' options for `description`, served
 * as the suite expects: each request sets the origin `notifyUrl` names, and
 * each answer waits for the log lines it wrote. Returns the app's fetch function.
 *
 * @param {RemoteRouteDescription} description
 * @param {(options: import('@paymount/core').PaymentRoutesOptions) => { fetch(request: Request): Response | Promise<Response>; close(): Promise<void> }} build
 */
export function remoteApp(description, build) {
  let origin = '';
  const routes = remoteRouteOptions(description, () => origin);
  const app = build(routes.options);
  return {
    /** @param {Request} request */
    async fetch(request) {
      origin = new URL(request.url).origin;
      const response = await app.fetch(request);
      await routes.settled();
      return response;
    },
    close: () => app.close(),
  };
}

/**
 * The suite's app on a Fetch runtime: `createFetchHandler` of the runtime's
 * `@paymount/core` at the description's mount path, and the app's own route
 * `GET <mount>/own-route` after it.
 *
 * @param {Pick<typeof import('@paymount/core'), 'createFetchHandler'>} core
 * @param {RemoteRouteDescription} description
 */
export function remoteConformanceApp(core, description) {
  const ownRoute = `${description.mountPath}/own-route`;
  return remoteApp(description, (options) => {
    const handler = core.createFetchHandler(options, {
      mountPath: description.mountPath,
      notFound: (request) =>
        new URL(request.url).pathname === ownRoute && request.method === 'GET' ? Response.json({ own: true }) : new Response('Not Found', { status: 404 }),
    });
    return { fetch: handler, close: () => handler.paymentRoutes.close() };
  });
}
