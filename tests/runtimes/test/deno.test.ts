import { describeRuntimeFlows } from '../support/describe-runtime-flows';
import { readProcessOutcome } from '../support/flow-run';
import { binary, run } from '../../../tools/child-processes';
import { DENO_PERMISSIONS, RUNTIMES_DIR } from '../support/processes';

// The same sandbox as `localhost` is outside DENO_PERMISSIONS' scope: the denied flow pays there.

describeRuntimeFlows(
  'deno',
  async (config, sandbox) => {
    const denied = { ...config, deniedBaseUrl: sandbox.url.replace('127.0.0.1', 'localhost') };
    const args = ['run', ...DENO_PERMISSIONS, '--no-prompt', '--no-lock', 'flows/deno.mjs', JSON.stringify(denied)];
    return readProcessOutcome(await run(binary('deno'), args, { cwd: RUNTIMES_DIR, timeoutMs: 60_000 }));
  },
  { permissionScoped: true },
);
