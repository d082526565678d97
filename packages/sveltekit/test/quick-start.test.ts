import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../tools/child-processes';
import { payOnHostedPage, payWithWallet, postJson } from '../../../tests/readmes/test/support/quick-start';
import { nodeBuild, type NodeBuild } from './support/node-build';
import { orderPageSays } from './support/order-page';
import { appDir, READMES_SVELTE_TSCONFIG, READMES_TSCONFIG } from './support/test-app';

const bin = join(import.meta.dirname, '..', '..', '..', 'node_modules');
const tsc = join(bin, 'typescript', 'bin', 'tsc');
const svelteCheck = join(bin, 'svelte-check', 'bin', 'svelte-check');

/** Beyond the checkers' own 240 s limit: on a busy machine the test reports their output, not its own time-out. */
const CHECK_LIMIT_MS = 300_000;

// test/global-setup.ts built the app with the README's quick start in src/ (support/test-app.ts).
describe('the README quick start', () => {
  it("type-checks under the tsconfig of `sv create --template minimal --types ts` (sv 0.17.1), which SvelteKit's own sync extends", async () => {
    const checked = await run(process.execPath, [tsc, '-p', READMES_TSCONFIG], { cwd: appDir, timeoutMs: 240_000 });
    expect(`${checked.stdout}${checked.stderr}`).toBe('');
    expect(checked.code).toBe(0);
  }, CHECK_LIMIT_MS);

  it("and the guide's order page's .svelte file (site/guides/sveltekit.md) with them, by svelte-check under the same tsconfig", async () => {
    const checked = await run(process.execPath, [svelteCheck, '--tsconfig', READMES_SVELTE_TSCONFIG, '--fail-on-warnings', '--output', 'machine'], { cwd: appDir, timeoutMs: 240_000 });
    expect(checked.stdout).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
    expect(checked.code).toBe(0);
  }, CHECK_LIMIT_MS);

  describe('built by vite build and served by node build with PAYMOUNT_SANDBOX=1', () => {
    let server: NodeBuild | undefined;
    let sandboxOrigin: string | undefined;
    const origin = () => {
      if (!server) throw new Error('node build did not start');
      return server.origin;
    };

    beforeAll(async () => {
      server = await nodeBuild({ PAYMOUNT_SANDBOX: '1', SHOP_ORDERS: 'sk-hosted-1:1250,sk-wallet-1:990' });
    });

    afterAll(async () => {
      await server?.close();
    });

    it('takes a hosted checkout paid on the sandbox page, and its webhook reaches the handler', async () => {
      sandboxOrigin = await payOnHostedPage(`${origin()}/payments`, 'sk-hosted-1', origin());
      expect(await orderPageSays(origin(), 'sk-hosted-1', 'paid')).toBe('Order sk-hosted-1: paid');
    });

    it('takes a wallet payment, and its webhook reaches the handler', async () => {
      if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
      await payWithWallet(`${origin()}/payments`, 'sk-wallet-1', sandboxOrigin);
      expect(await orderPageSays(origin(), 'sk-wallet-1', 'paid')).toBe('Order sk-wallet-1: paid');
    });

    it('answers a path below the mount that is no route, and an unknown order, with a JSON 404', async () => {
      expect(await postJson(`${origin()}/payments/nowhere`, {})).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
      expect(await postJson(`${origin()}/payments/checkout`, { orderId: 'nobody-ordered-this' })).toMatchObject({
        status: 404,
        body: { error: { code: 'ORDER_NOT_FOUND' } },
      });
    });
  });
});
