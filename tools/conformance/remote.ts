import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentEvent, PaymentRoutesOptions } from '@paymount/core';
import type { ConformanceApp, ConformanceTarget } from './context';

/** What `remote-app.mjs` rebuilds the suite's options from, inside the runtime under test. */
export interface RemoteRouteDescription {
  /** The suite's bridge on Node, which runs the options' functions. */
  bridgeUrl: string;
  /** Where the app mounts the routes. */
  mountPath: string;
  /** The client options, without the sandbox's clock and CA (objects of the Node process). */
  client: Record<string, unknown>;
  /** Every other option that is data: limits, wallet, webhook secret, allowed origins. */
  options: Record<string, unknown>;
}

type LogLevel = 'debug' | 'info' | 'warn' | 'error';

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text) as unknown;
}

/** What the bridge does for each call of the remote routes' functions. */
function bridgeCalls(options: PaymentRoutesOptions): Record<string, (body: never) => Promise<unknown>> {
  const onAll = options.on?.['*'] as ((event: PaymentEvent) => unknown) | undefined;
  return {
    'resolve-order': async ({ orderId }: { orderId: string }) => ({ order: (await options.resolveOrder(orderId, undefined as never)) ?? null }),
    event: async (event: PaymentEvent) => {
      await onAll?.(event);
      return {};
    },
    log: async ({ level, objOrMsg, msg }: { level: LogLevel; objOrMsg: object | string; msg?: string }) => {
      const logger = options.logger as Record<LogLevel, (objOrMsg: object | string, msg?: string) => void> | undefined;
      logger?.[level](objOrMsg, msg);
      return {};
    },
  };
}

/**
 * Serves the suite's options to routes running in another runtime (Bun, Deno,
 * workerd, the Next.js edge runtime): their data as a JSON description, and
 * their functions as HTTP calls (`POST /resolve-order`, `/event`, `/log`) to
 * this server, which runs the suite's own functions, so every case judges the
 * same recordings whichever runtime served it. A function answering with an
 * error (a handler failure the case asked for) answers 500.
 */
async function startOptionsBridge(options: PaymentRoutesOptions, mountPath: string): Promise<{ description: RemoteRouteDescription; close(): Promise<void> }> {
  // The functions stay here, reached over the bridge (notifyUrl is the app's own webhook route there too);
  // telemetry, an in-process OpenTelemetry SDK, cannot follow.
  const { client, resolveOrder: _resolveOrder, notifyUrl: _notifyUrl, logger: _logger, on, telemetry: _telemetry, ...data } = options;
  const stranded = [...Object.entries(data).filter(([, value]) => typeof value === 'function'), ...Object.entries(on ?? {}).filter(([name]) => name !== '*')];
  if (stranded.length > 0) throw new Error(`the conformance bridge cannot carry the option ${stranded[0]![0]}: add it to the bridge`);
  const calls = bridgeCalls(options);
  const server: Server = createServer((req, res) => {
    const call = calls[(req.url ?? '').slice(1)];
    if (call === undefined || req.method !== 'POST') return void res.writeHead(404).end();
    jsonBody(req)
      .then((body) => call(body as never))
      .then(
        (answer) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
        (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error instanceof Error ? error.message : String(error)),
      );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // The sandbox's clock and CA are objects of this process: the remote client reads its own runtime's clock, over plain HTTP.
  const { clock: _clock, ca: _ca, ...clientData } = client as Record<string, unknown>;
  return {
    description: {
      bridgeUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      mountPath,
      client: clientData,
      options: data as Record<string, unknown>,
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A conformance target whose routes run in another runtime: `start` launches
 * the runtime's app from the description (`remote-app.mjs` builds the routes'
 * options from it) and says where it serves the routes (at `mountPath`,
 * default `/payments`). Every Fetch runtime
 * parses a request's URL before the app sees it.
 */
export function remoteConformanceTarget(
  runtime: string,
  start: (description: RemoteRouteDescription) => Promise<ConformanceApp>,
  { mountPath = '/payments', ...flags }: Omit<ConformanceTarget, 'startApp' | 'remoteRuntime'> & { mountPath?: string } = {},
): ConformanceTarget {
  return {
    serverResolvesPaths: true,
    ...flags,
    remoteRuntime: runtime,
    async startApp(options) {
      const bridge = await startOptionsBridge(options, mountPath);
      try {
        const app = await start(bridge.description);
        return {
          url: app.url,
          async close() {
            await app.close();
            await bridge.close();
          },
        };
      } catch (error) {
        await bridge.close();
        throw error;
      }
    },
  };
}
