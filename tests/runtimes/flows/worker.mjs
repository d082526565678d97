// @ts-check
// The flows inside workerd: `POST /run` with the config runs them; every other
// request goes to the payment routes they serve, so the sandbox's webhooks
// reach this Worker like any other request.
import { runFlows } from './flows.mjs';

/** The routes of the run in progress, shared by the requests this isolate serves. */
/** @type {((request: Request) => Promise<Response>) | undefined} */
let routes;

export default {
  /** @param {Request} request */
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname !== '/run' || request.method !== 'POST') {
      return routes === undefined ? new Response('no flow run in progress', { status: 503 }) : routes(request);
    }
    const config = /** @type {import('./types').FlowConfig} */ (await request.json());
    const result = await runFlows(config, async (handler) => {
      routes = handler;
      return {
        url: url.origin,
        close: async () => {
          routes = undefined;
        },
      };
    });
    return Response.json({ runtime: `workerd (${navigator.userAgent})`, ...result });
  },
};
