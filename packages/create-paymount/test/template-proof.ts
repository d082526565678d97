import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserTestsMode, MISSING_CHROMIUM } from '../../../tools/browser-testing/chromium';
import { PaymentPages, SHOWN_WITHIN_MS } from '../../../tools/browser-testing/payment-pages';
import { binary, startServer, type RunningServer } from '../../../tools/child-processes';
import { freePort } from '../../../tools/free-port';
import { testPool } from '../../../tools/postgres-pool';
import { POSTGRES_START_LIMIT_MS, postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import type { PackageManager } from '../src/args';
import { TEMPLATES_DIR } from '../src/scaffold';

const exec = promisify(execFile);
const CLI = new URL('../dist/cli.js', import.meta.url).pathname;

/**
 * What a scaffolded app's commands see: this machine's, without the test runner's own variables
 * (VITEST_*, NODE_ENV=test), which the app's own vitest and `npm start` would take for theirs.
 */
const APP_ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(['PATH', 'HOME', 'TMPDIR', 'LANG', 'CI', 'npm_config_cache'].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]]))),
  NO_COLOR: '1',
};

/** The CLI's flags and environment for an install from the packed packages, from the managers' warm caches. */
function scaffoldWith(dir: string, framework: string, manager: PackageManager): [string[], NodeJS.ProcessEnv] {
  return [
    [CLI, dir, '--framework', framework, '--packages', inject('templateTarballs'), '--package-manager', manager],
    { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
  ];
}

/** Runs `command` in the app to its end; a failure carries everything it wrote. Resolves its stdout and how long it took, in ms. */
async function inApp(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; ms: number }> {
  const started = performance.now();
  try {
    const { stdout } = await exec(command, args, { cwd, env: { ...APP_ENV, ...env }, maxBuffer: 64 * 1024 * 1024 });
    return { stdout, ms: performance.now() - started };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

/**
 * The action of the post form whose first field is the hidden input `name`, and that input's value.
 * The form's attributes in any order: React writes a form's `action` before its `method`.
 */
function formWith(page: string, name: string): { action: string; value: string } {
  for (const [, attributes, value] of page.matchAll(new RegExp(`<form\\b([^>]*)>\\s*<input type="hidden" name="${name}" value="([^"]+)"`, 'g'))) {
    const action = /\baction="([^"]+)"/.exec(attributes!)?.[1];
    if (action !== undefined && /\bmethod="post"/.test(attributes!)) return { action, value: value! };
  }
  throw new Error(`no post form with a hidden ${name} in:\n${page}`);
}

/**
 * Limits for a hang, never a verdict: with other suites on the two cores an npm install from the
 * cache took 328 s and npm pack 109 s (against 45-85 s and 13-26 s on a quieter machine).
 */
const STEP_LIMIT_MS = 900_000;
/**
 * The proof of one template, as CI runs it: scaffolded by the CLI from the packed packages and
 * installed with npm, type-checked by its own `typecheck` script, its own `npm test` passed, started
 * with `npm start`, its home page's buy form followed to the sandbox's hosted checkout, and its order
 * page's wallet button paid in Chromium. Each template's file (`test/templates/<framework>.test.ts`)
 * calls it.
 */
export function proveTemplate(framework: string): void {
  describe(`the ${framework} template, scaffolded from the packed packages`, () => {
    const work = mkdtempSync(join(tmpdir(), `create-paymount-${framework}-`));
    const dir = join(work, `${framework}-shop`);
    const steps: Record<string, number> = {};
    afterAll(async () => {
      const total = Object.values(steps).reduce((sum, ms) => sum + ms, 0);
      process.stdout.write(`create-paymount ${framework} template: ${(total / 1000).toFixed(0)} s (${Object.entries(steps).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`).join(', ')})\n`);
      // Retried: a server's last writes (next dev's generated types) may land while the folder goes.
      await rm(work, { recursive: true, force: true, maxRetries: 5 });
    });

    beforeAll(async () => {
      // The CLI as `npm create paymount` runs it, installing with npm from its warm cache.
      const [args, env] = scaffoldWith(dir, framework, 'npm');
      const { stdout, ms } = await inApp(work, process.execPath, args, env);
      steps['scaffold and npm install'] = ms;
      expect(stdout).toContain(`Made the ${framework} shop in ${dir}`);
      expect(stdout).toContain('  npm start');
    }, STEP_LIMIT_MS);

    it('installed paymount from the tarballs', () => {
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
      expect(lock.packages['node_modules/@paymount/core']?.resolved).toMatch(new RegExp(`^file:.*paymount-core-.*\\.tgz$`));
    });

    // A template whose `npm start` first runs `tsc` over the tsconfig its typecheck checks (prestart, emitting) is
    // type-checked by the start below, which any type error fails: the same compile is not run twice.
    const { scripts } = JSON.parse(readFileSync(join(TEMPLATES_DIR, framework, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const checkedByStart = scripts['prestart'] !== undefined && scripts['typecheck'] === `${scripts['prestart']} --noEmit`;
    it.skipIf(checkedByStart)(
      `type-checks under its own tsconfig (npm run typecheck)${checkedByStart ? " (skipped: npm start's prestart runs the same tsc)" : ''}`,
      async () => {
        steps['npm run typecheck'] = (await inApp(dir, 'npm', ['run', 'typecheck'])).ms;
      },
      STEP_LIMIT_MS,
    );

    it('passes its own npm test: paid by hosted checkout, declined then paid, expired then paid anew, a replayed webhook changing nothing', async () => {
      const { stdout, ms } = await inApp(dir, 'npm', ['test']);
      steps['npm test'] = ms;
      expect(stdout).toMatch(/Tests\s+\d+ passed/);
      expect(stdout).not.toMatch(/failed|skipped/);
    }, STEP_LIMIT_MS);

    describe('started with npm start', () => {
      let app: RunningServer | undefined;
      let origin = '';
      const dashboardUrl = () => /Dashboard: (\S+)/.exec(app!.output())?.[1];
      beforeAll(async () => {
        const port = await freePort();
        origin = `http://127.0.0.1:${port}`;
        const started = performance.now();
        app = await startServer('npm', ['start'], { cwd: dir, env: { ...APP_ENV, PORT: String(port) }, replaceEnv: true, readyUrl: origin, requireOk: true, timeoutMs: STEP_LIMIT_MS - 60_000 });
        steps['npm start'] = performance.now() - started;
      }, STEP_LIMIT_MS);
      afterAll(() => app?.close());

      it("prints the shop's and the dashboard's URLs; the home page's buy form leads to the hosted checkout of that order and amount", async () => {
        const output = app!.output();
        expect(output).toContain(`Shop:      ${origin}`);
        expect(dashboardUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/dashboard$/);

        const home = await fetch(origin);
        expect(home.status).toBe(200);
        const buy = formWith(await home.text(), 'sku');
        // Sent as a browser sends a form from the shop's page: SvelteKit and Astro refuse a form post with no
        // Origin of theirs, and SvelteKit answers an action's redirect as JSON to a request that takes JSON.
        const asFromPage = { origin, accept: 'text/html' };
        const placed = await fetch(new URL(buy.action, origin), { method: 'POST', headers: asFromPage, body: new URLSearchParams({ sku: buy.value }), redirect: 'manual' });
        expect(placed.status).toBe(303);
        const orderPage = await fetch(new URL(placed.headers.get('location')!, origin));
        expect(orderPage.status).toBe(200);
        const checkout = formWith(await orderPage.text(), 'orderId');
        const toService = await fetch(new URL(checkout.action, origin), { method: 'POST', headers: asFromPage, body: new URLSearchParams({ orderId: checkout.value }), redirect: 'manual' });
        expect(toService.status).toBe(303);

        const hostedUrl = new URL(toService.headers.get('location')!);
        expect(hostedUrl.origin).toBe(new URL(dashboardUrl()!).origin);
        const hosted = await fetch(hostedUrl);
        expect(hosted.status).toBe(200);
        const page = await hosted.text();
        expect(page).toContain('Paymount shop: Paymount mug');
        expect(page).toContain('$12.50');
        // The sandbox's own record of the session: this order's, for the catalogue's price.
        const { snapshot } = (await (await fetch(`${dashboardUrl()}/data?orderId=${checkout.value}`)).json()) as {
          snapshot: { sessions: { sessionId: string; referenceOrderId: string; payableTotal: number; priceCurrency: string }[] };
        };
        expect(snapshot.sessions).toEqual([expect.objectContaining({ referenceOrderId: checkout.value, payableTotal: 1250, priceCurrency: 'USD' })]);
        expect(hostedUrl.pathname).toBe(`/hosted/checkout/${snapshot.sessions[0]!.sessionId}`);
      });

      const chromium = browserTestsMode();
      it.skipIf(chromium === 'skip')(
        `in Chromium, the order page's wallet button pays under its Content Security Policy; no token in a URL, storage or console${chromium === 'skip' ? ' (skipped: no Chromium here)' : ''}`,
        async () => {
          if (chromium === 'fail') throw new Error(MISSING_CHROMIUM);
          const pages = await PaymentPages.launch({ mount: `${origin}/payments`, sandboxUrl: new URL(dashboardUrl()!).origin });
          try {
            const page = await pages.open(origin);
            await page.getByRole('button', { name: 'Buy' }).first().click();
            await page.waitForURL(`${origin}/orders/**`, { timeout: SHOWN_WITHIN_MS });
            await page.locator('button:enabled', { hasText: 'Pay with wallet' }).click({ timeout: SHOWN_WITHIN_MS });
            // The page follows the payment and shows it once the webhook handler has marked the order paid.
            await page.waitForSelector('#status[data-status="paid"]', { timeout: SHOWN_WITHIN_MS });
            await pages.evidence.collectStorage(page.context(), page);
            expect(pages.evidence.walletTokens.size).toBe(1);
            expect(pages.problems()).toEqual([]);
          } finally {
            await pages.close();
          }
        },
      );
    });
  });
}

export interface InstallVariant {
  framework: string;
  manager: PackageManager;
  /** Scaffolded with `--database postgres` on a throwaway server: the shop's tests and its start use it. */
  postgres?: boolean;
}

/**
 * A proof beside a template's whole one, for what it does not vary: scaffolded from the packed
 * packages with another package manager or database, installed by that manager (from the npm
 * registry into its own cache: pnpm, yarn and bun do not read npm's), type-checked, and its own
 * tests passed, each by that manager's `run`.
 */
export function proveInstall({ framework, manager, postgres = false }: InstallVariant): void {
  describe.skipIf(postgres && postgresSkipped)(`the ${framework} template, installed by ${manager}${postgres ? ', its orders on a PostgreSQL server' : ''}`, () => {
    const work = mkdtempSync(join(tmpdir(), `create-paymount-${framework}-${manager}-`));
    const dir = join(work, `${framework}-shop`);
    // pnpm, yarn and bun as npm installed them for this repository (devDependencies), first on the PATH as a merchant's own are.
    const env = manager === 'npm' ? APP_ENV : { ...APP_ENV, PATH: `${dirname(binary(manager))}:${APP_ENV['PATH'] ?? ''}` };
    const steps: Record<string, number> = {};
    let server: PostgresServer | undefined;
    let databaseUrl = '';
    afterAll(async () => {
      process.stdout.write(`create-paymount ${framework} by ${manager}${postgres ? ' on PostgreSQL' : ''}: ${Object.entries(steps).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`).join(', ')}\n`);
      server?.destroy();
      await rm(work, { recursive: true, force: true });
    });

    beforeAll(async () => {
      const [args, installEnv] = scaffoldWith(dir, framework, manager);
      if (postgres) {
        server = await startPostgresServer();
        databaseUrl = server.createDatabase('shop');
        args.push('--database-url', databaseUrl);
      }
      const { stdout, ms } = await inApp(work, process.execPath, args, { ...env, ...installEnv });
      steps[`scaffold and ${manager} install`] = ms;
      expect(stdout).toContain(`Made the ${framework} shop in ${dir}`);
    }, STEP_LIMIT_MS + POSTGRES_START_LIMIT_MS);

    it(`type-checks (${manager} run typecheck) and passes its own tests (${manager} run test)`, async () => {
      steps[`${manager} run typecheck`] = (await inApp(dir, manager, ['run', 'typecheck'], env)).ms;
      const { stdout, ms } = await inApp(dir, manager, ['run', 'test'], env);
      steps[`${manager} run test`] = ms;
      expect(stdout).toMatch(/Tests\s+\d+ passed/);
      expect(stdout).not.toMatch(/failed|skipped/);
    }, 2 * STEP_LIMIT_MS);

    if (postgres) it("kept the tests' orders on the server of its .env, and starts on it", async () => {
      const pool = testPool(databaseUrl);
      try {
        const { rows } = await pool.query<{ status: string }>('SELECT DISTINCT status FROM shop_orders ORDER BY status');
        expect(rows.map((row) => row.status)).toEqual(['paid', 'refunded']);
      } finally {
        await pool.end();
      }
      const port = await freePort();
      const started = performance.now();
      const app = await startServer(manager, ['run', 'start'], { cwd: dir, env: { ...env, PORT: String(port) }, replaceEnv: true, readyUrl: `http://127.0.0.1:${port}`, requireOk: true, timeoutMs: STEP_LIMIT_MS - 60_000 });
      steps[`${manager} run start`] = performance.now() - started;
      try {
        expect(app.output()).toContain(`Orders:    PostgreSQL at 127.0.0.1:${server!.port}/shop`);
      } finally {
        await app.close();
      }
    }, STEP_LIMIT_MS);
  });
}
