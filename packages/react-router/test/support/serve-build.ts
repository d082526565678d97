import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@react-router/express';
import express, { type Express } from 'express';
import type { ServerBuild } from 'react-router';
import type { PaymentRouteOptions, PaymentRouteOptionsFactory } from '../../src';
import { buildOf } from './test-app';

/** Where the conformance app's routes (test/conformance-app/app/test-options.js, routes/lazy.$.js) take their options from. */
const OPTIONS = Symbol.for('@paymount/react-router.test.options');
const OPTIONS_FACTORY = Symbol.for('@paymount/react-router.test.options-factory');

export interface ServedBuild {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/**
 * The conformance app's `react-router build`, imported in this process with
 * `options` for its payment routes (and `factory` for its lazy one), served as
 * the node-custom-server template serves it in production: Express with the
 * client assets and @react-router/express's request handler, after what
 * `before` puts in front of it.
 */
export async function serveConformanceBuild(
  options: PaymentRouteOptions,
  factory?: PaymentRouteOptionsFactory,
  before: (app: Express) => void = () => undefined,
): Promise<ServedBuild> {
  Object.assign(globalThis, { [OPTIONS]: options, [OPTIONS_FACTORY]: factory });
  const { server: serverBuild, client: clientBuild } = buildOf('conformance');
  const build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
  const app = express();
  app.disable('x-powered-by');
  app.use('/assets', express.static(`${clientBuild}/assets`, { immutable: true, maxAge: '1y' }));
  app.use(express.static(clientBuild, { maxAge: '1h' }));
  before(app);
  app.use(createRequestHandler({ build, mode: 'production' }));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
