import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PaymentRoutesOptions } from '@paymount/core';
import { remoteConformanceTarget, type ConformanceApp, type RemoteRouteDescription } from '../../../../tools/conformance';
import { binary, startServer } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';
import { readmeBlocks } from '../../../../tools/readme-blocks';

const packageDir = join(import.meta.dirname, '..', '..');
/** Where the compiled app is written (git-ignored). */
const appDir = join(packageDir, '.test-app');
const serverFile = join(appDir, 'server');
const entry = join(packageDir, 'test', 'elysia-app', 'src', 'conformance.ts');

/** Where the guide's order page is written, for the test app to import as Bun's HTML import (test/elysia-app imports it from here). */
const orderPageDir = join(appDir, 'public');

/** The Elysia guide's order page, its HTML and its module script, as written. */
function writeOrderPage(): void {
  const guide = join(packageDir, '..', '..', 'site', 'guides', 'elysia.md');
  const html = /```html\n<!-- public\/order\.html -->\n([\s\S]*?)```/.exec(readFileSync(guide, 'utf8'))?.[1];
  const script = readmeBlocks('elysia', guide).filter((block) => block.fileName === 'public/order.ts');
  if (html === undefined || script.length !== 1) throw new Error("the elysia guide's wallet button section lost its public/order.html or public/order.ts");
  mkdirSync(orderPageDir, { recursive: true });
  writeFileSync(join(orderPageDir, 'order.html'), html);
  writeFileSync(join(orderPageDir, 'order.ts'), script[0]!.code);
}

/**
 * Elysia's production build of the conformance app, as its deployment guide
 * gives it: one executable, `@paymount/elysia` and `@paymount/core` bundled
 * from their built `dist` (Bun's export condition picks core's web build).
 */
export function buildElysiaApp(): void {
  writeOrderPage();
  const args = ['build', '--compile', '--minify-whitespace', '--minify-syntax', '--target', 'bun', '--outfile', serverFile, entry];
  const built = spawnSync(binary('bun'), args, { cwd: packageDir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`bun ${args.join(' ')} failed (${built.status ?? built.signal}):\n${built.stdout}${built.stderr}`);
}

/** What the app does beside the plugin (the test app reads them from its environment). */
export interface ElysiaAppSettings {
  /** The app's own Elysia prefix, before the plugin's: the plugin's prefix is the rest of the mount path. */
  appPrefix?: string;
  /** A parser of the app reading every JSON body, registered before or after the plugin. */
  jsonParser?: 'before' | 'after';
  /** Log what `resolveOrder` and the event handlers got as `ctx.context` (its route, the app's derived `shopper` from `X-Shopper`). */
  contextProbe?: boolean;
}

/** The compiled app serving the routes `description` describes, in production mode, on a free port of 127.0.0.1. */
export async function startElysiaApp(description: RemoteRouteDescription, { appPrefix = '', jsonParser, contextProbe = false }: ElysiaAppSettings = {}): Promise<ConformanceApp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServer(serverFile, [JSON.stringify(description)], {
    cwd: appDir,
    env: { PORT: String(port), NODE_ENV: 'production', APP_PREFIX: appPrefix, JSON_PARSER: jsonParser ?? '', CONTEXT_PROBE: contextProbe ? '1' : '0' },
    readyUrl: `${origin}${description.mountPath}/own-route`,
    timeoutMs: 60_000,
  });
  return { url: `${origin}${description.mountPath}`, close: () => server.close() };
}

/** The compiled app, given the routes' options as the conformance suite gives them (its functions called over HTTP). */
export function startElysiaAppWith(options: PaymentRoutesOptions, settings: ElysiaAppSettings = {}): Promise<ConformanceApp> {
  return remoteConformanceTarget('Bun', (description) => startElysiaApp(description, settings)).startApp(options);
}
