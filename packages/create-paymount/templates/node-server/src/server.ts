import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentRoutes } from '@paymount/core';
import { createApp } from './app.js';
import { readConfig } from './config.js';
import { startBehind, type RunningShop, type StartOptions } from './shop-start.js';

export type { RunningShop, StartOptions } from './shop-start.js';

/** What a template's `createApp` gives back: the framework's app as a Node listener, and paymount's routes behind it. */
export interface ShopApp {
  listener: RequestListener;
  paymentRoutes: PaymentRoutes;
  close(): Promise<void>;
}

function listen(port: number, host: string): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${port} on ${host} is in use: set PORT to another one.`) : error),
    );
    server.listen(port, host, () => resolve(server));
  });
}

/** Starts the shop on a Node HTTP server: listening first, then what it runs on, then the framework's app behind it. */
export async function startShop(options: StartOptions = {}): Promise<RunningShop> {
  const config = options.config ?? readConfig();
  const server = await listen(config.port, config.host);
  const { address, port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return startBehind({ host: address, port, stop }, config, options, async (shop) => {
    const app = await createApp(shop);
    server.on('request', app.listener);
    return app;
  });
}
