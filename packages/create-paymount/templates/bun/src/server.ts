import type { PaymentRoutes } from '@paymount/core';
import { createApp } from './app.js';
import { readConfig } from './config.js';
import type { ShopResponse } from './shop.js';
import { startBehind, type RunningShop, type StartOptions } from './shop-start.js';

export type { RunningShop, StartOptions } from './shop-start.js';

/** What a template's `createApp` gives back: the framework's app as `Bun.serve`'s fetch handler, and paymount's routes behind it. */
export interface ShopApp {
  fetch(request: Request): Response | Promise<Response>;
  paymentRoutes: PaymentRoutes;
  close(): Promise<void>;
}

/** A shop page's answer as the Web `Response` both Hono and Elysia send. */
export function respond(answer: ShopResponse): Response {
  return new Response(answer.body === '' ? null : answer.body, { status: answer.status, headers: answer.headers });
}

/** Until the app is made, a request is told to come back: the server listens before the sandbox and the database are up. */
function starting(): Response {
  return new Response('The shop is starting.', { status: 503, headers: { 'retry-after': '1' } });
}

function listen(port: number, hostname: string): Bun.Server<undefined> {
  try {
    return Bun.serve({ port, hostname, fetch: starting });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') throw new Error(`Port ${port} on ${hostname} is in use: set PORT to another one.`, { cause: error });
    throw error;
  }
}

/** Starts the shop on Bun: listening first, then what it runs on, then the framework's app, swapped in with `server.reload`. */
export async function startShop(options: StartOptions = {}): Promise<RunningShop> {
  const config = options.config ?? readConfig();
  const server = listen(config.port, config.host);
  // true: close idle connections too.
  const stop = () => server.stop(true);
  return startBehind({ host: server.hostname ?? config.host, port: server.port ?? config.port, stop }, config, options, async (shop) => {
    const app = await createApp(shop);
    server.reload({ fetch: (request) => app.fetch(request) });
    return app;
  });
}
