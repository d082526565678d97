// Records how each new framework's production-built test app answers a delivery that no route of
// the app takes: the framework's own refusal, with the headers and body the sandbox keeps of it
// (its answerHeaders and the start of its answer). What a framework writes there it writes on its
// error path for every status, an auth hook's 401 included (SvelteKit's `error()`, h3's
// `createError`, Elysia's `status()`), and what a server adds it adds to every answer; so these
// answers are what the sandbox's app-framework.ts recognises each framework by.
//
//   npx turbo run build && (build each package's test app, as its tests do)
//   npx tsx tests/fresh-apps/src/record-refusals.ts
//
// Writes tests/fresh-apps/recorded/refusals.json, read by packages/sandbox/test/delivery-diagnosis.test.ts.
import { writeFileSync } from 'node:fs';
import type { PaymentRoutesOptions } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { remoteConformanceTarget } from '../../../tools/conformance/remote';
import { startElysiaApp } from '../../../packages/elysia/test/support/elysia-app';
import { startNitroServer } from '../../../packages/nuxt/test/support/nitro-server';
import { serveTestApp } from '../../../packages/astro/test/support/test-app';
import { reactRouterServe } from '../../../packages/react-router/test/support/react-router-serve';
import { serveConformanceBuild } from '../../../packages/react-router/test/support/serve-build';
import { nodeBuild } from '../../../packages/sveltekit/test/support/node-build';
import { startApp as startTanStackApp } from '../../../packages/tanstack-start/test/support/start-app';

interface Served {
  origin: string;
  close(): Promise<unknown>;
}

/** Each app as its package's tests serve it in production, with the routes' options of `options` where it takes them. */
const APPS: { app: string; framework: string; serve: (options: PaymentRoutesOptions) => Promise<Served> }[] = [
  {
    app: 'SvelteKit 2 on adapter-node, node build',
    framework: 'sveltekit',
    serve: async () => {
      const server = await nodeBuild({ PAYMOUNT_SANDBOX: '1' });
      return { origin: server.origin, close: server.close };
    },
  },
  {
    app: 'Nuxt 4, Nitro node-server preset, node .output/server/index.mjs',
    framework: 'nuxt',
    serve: async (options) => {
      const started = remoteConformanceTarget('Nuxt', async (description) => {
        const server = await startNitroServer({ PAYMOUNT_CONFORMANCE: JSON.stringify(description) });
        return { url: server.origin, close: server.stop };
      });
      const app = await started.startApp(options);
      return { origin: app.url, close: app.close };
    },
  },
  {
    app: 'Astro 5 on @astrojs/node standalone, node dist/server/entry.mjs',
    framework: 'astro',
    serve: async () => {
      const server = await serveTestApp({ PAYMOUNT_SANDBOX: '1' });
      return { origin: server.origin, close: server.close };
    },
  },
  {
    app: 'React Router 7, react-router-serve (the template\'s npm start)',
    framework: 'react-router',
    serve: async () => {
      const server = await reactRouterServe('quick-start', { PAYMOUNT_SANDBOX: '1' });
      return { origin: server.origin, close: server.stop };
    },
  },
  {
    app: 'React Router 7, @react-router/express custom server with x-powered-by off',
    framework: 'react-router',
    serve: async (options) => {
      const served = await serveConformanceBuild(options);
      return { origin: served.origin, close: served.close };
    },
  },
  {
    app: 'TanStack Start 1.131, node .output/server/index.mjs',
    framework: 'tanstack-start',
    serve: async () => {
      const server = await startTanStackApp({ PAYMOUNT_SANDBOX: '1' });
      return { origin: server.origin, close: server.close };
    },
  },
  {
    app: 'Elysia 1 on Bun, bun build --compile',
    framework: 'elysia',
    serve: async (options) => {
      const started = remoteConformanceTarget('Bun', (description) => startElysiaApp(description));
      const app = await started.startApp(options);
      return { origin: new URL(app.url).origin, close: app.close };
    },
  },
];

function routeOptions(sandbox: Sandbox): PaymentRoutesOptions {
  return {
    client: { ...sandbox.clientOptions(), retry: { maxAttempts: 1 } },
    resolveOrder: () => null,
    webhook: { secret: sandbox.webhookSecret },
    logger: false,
  };
}

const sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [], log: false });
const recorded = [];
try {
  for (const { app, framework, serve } of APPS) {
    const served = await serve(routeOptions(sandbox));
    try {
      // A path the app has no route for: the framework answers it, before any paymount route.
      const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${served.origin}/no-route-here/webhook` });
      const [attempt] = delivery.attempts;
      if (attempt?.status === undefined) throw new Error(`${app}: no answer (${attempt?.error})`);
      recorded.push({ app, framework, request: 'a delivery to a path no route takes', status: attempt.status, answerHeaders: attempt.answerHeaders ?? {}, answer: attempt.answer ?? '' });
      process.stdout.write(`${app}: ${attempt.status} ${JSON.stringify(attempt.answerHeaders)} ${JSON.stringify(attempt.answer?.slice(0, 120))}\n`);
    } finally {
      await served.close();
    }
  }
} finally {
  await sandbox.close();
}
writeFileSync(new URL('../recorded/refusals.json', import.meta.url), `${JSON.stringify(recorded, null, 2)}\n`);
