import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserTestsMode, MISSING_CHROMIUM } from '../../../tools/browser-testing/chromium';
import { PaymentPages, SHOWN_WITHIN_MS } from '../../../tools/browser-testing/payment-pages';
import { startServer, type RunningServer } from '../../../tools/child-processes';
import { freePort } from '../../../tools/free-port';

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
      const { stdout, ms } = await inApp(work, process.execPath, [CLI, dir, '--framework', framework, '--packages', inject('templateTarballs'), '--package-manager', 'npm'], {
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
      });
      steps['scaffold and npm install'] = ms;
      expect(stdout).toContain(`Made the ${framework} shop in ${dir}`);
      expect(stdout).toContain('  npm start');
    }, STEP_LIMIT_MS);

    it('installed paymount from the tarballs', () => {
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
      expect(lock.packages['node_modules/@paymount/core']?.resolved).toMatch(new RegExp(`^file:.*paymount-core-.*\\.tgz$`));
    });

    it('type-checks under its own tsconfig (npm run typecheck)', async () => {
      steps['npm run typecheck'] = (await inApp(dir, 'npm', ['run', 'typecheck'])).ms;
    }, STEP_LIMIT_MS);

    it('passes its own npm test: paid by hosted checkout, declined then paid, a replayed webhook changing nothing', async () => {
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
        app = await startServer('npm', ['start'], { cwd: dir, env: { ...APP_ENV, PORT: String(port) }, replaceEnv: true, readyUrl: origin, requireOk: true, processGroup: true, timeoutMs: STEP_LIMIT_MS - 60_000 });
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
        const placed = await fetch(new URL(buy.action, origin), { method: 'POST', body: new URLSearchParams({ sku: buy.value }), redirect: 'manual' });
        expect(placed.status).toBe(303);
        const orderPage = await fetch(new URL(placed.headers.get('location')!, origin));
        expect(orderPage.status).toBe(200);
        const checkout = formWith(await orderPage.text(), 'orderId');
        const toService = await fetch(new URL(checkout.action, origin), { method: 'POST', body: new URLSearchParams({ orderId: checkout.value }), redirect: 'manual' });
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
