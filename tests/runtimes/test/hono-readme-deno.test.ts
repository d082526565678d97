import { expect, it } from 'vitest';
import { describeReadmeQuickStart } from '../support/describe-readme-quick-start';
import { denoServeArgs, writeHonoReadmeApp } from '../support/hono-readme-app';
import { binary, startServer } from '../../../tools/child-processes';
import { RUNTIMES_DIR } from '../support/processes';
import { freePort } from '../../../tools/free-port';

// The README's server.ts served by its own `deno serve` command: the permissions it names and no other,
// --allow-net naming the sandbox's address where the README names the local one.
describeReadmeQuickStart('Deno', async (app, { env, port, sandbox }) => {
  const args = denoServeArgs(app.commands.deno, { entry: app.entries.server, port, service: new URL(sandbox.url).host });
  return startServer(binary('deno'), args, { cwd: RUNTIMES_DIR, env, readyUrl: `http://127.0.0.1:${port}/test/orders/none`, timeoutMs: 60_000 });
});

it("needs every variable of the README's --allow-env list: without one, the start stops with Deno's NotCapable naming it", async () => {
  const app = writeHonoReadmeApp();
  const withoutPublicUrl = app.commands.deno.replace(',PUBLIC_URL', '');
  expect(withoutPublicUrl).not.toBe(app.commands.deno);
  const port = await freePort();
  const args = denoServeArgs(withoutPublicUrl, { entry: app.entries.server, port, service: '127.0.0.1:9' });
  const env = { PAYMENT_API_KEY: 'sk_test_not_used_here_0123456789', PUBLIC_URL: 'http://127.0.0.1' };
  await expect(startServer(binary('deno'), args, { cwd: RUNTIMES_DIR, env, readyUrl: `http://127.0.0.1:${port}/`, timeoutMs: 60_000 })).rejects.toThrow(/NotCapable: Requires env access to "PUBLIC_URL"/);
});
