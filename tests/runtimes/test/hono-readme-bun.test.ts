import { describeReadmeQuickStart } from '../support/describe-readme-quick-start';
import { binary, startServer } from '../../../tools/child-processes';
import { RUNTIMES_DIR } from '../support/processes';

// The README's server.ts served by `bun server.ts` as it says, on PORT. `--preserve-symlinks` is the
// repository's, not the README's: here @paymount/hono is a workspace link to packages/hono, whose
// tsconfig.json maps @paymount/core to its sources, and Bun follows the tsconfig nearest a file's real
// path. A merchant's node_modules holds the published files, which carry no tsconfig.json.
describeReadmeQuickStart('Bun', async (app, { env, port }) => {
  const [program, file] = app.commands.bun.split(/\s+/);
  if (program !== 'bun' || file !== 'server.ts') throw new Error(`hono README: "${app.commands.bun}" is not \`bun server.ts\``);
  const origin = `http://127.0.0.1:${port}`;
  return startServer(binary('bun'), ['--preserve-symlinks', app.entries.server], { cwd: RUNTIMES_DIR, env: { ...env, PORT: String(port) }, readyUrl: `${origin}/test/orders/none`, timeoutMs: 60_000 });
});
