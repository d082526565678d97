import { describeRuntimeFlows } from '../support/describe-runtime-flows';
import { readProcessOutcome } from '../support/flow-run';
import { binary, run } from '../support/processes';

/**
 * The one permission the README names: network, here scoped to 127.0.0.1 (the
 * sandbox and the routes' own server). No --allow-env, --allow-read or -A. The
 * same sandbox as `localhost` is outside that scope: the denied flow pays there.
 */
export const DENO_PERMISSIONS = ['--allow-net=127.0.0.1'];

describeRuntimeFlows(
  'deno',
  async (config, sandbox) => {
    const denied = { ...config, deniedBaseUrl: sandbox.url.replace('127.0.0.1', 'localhost') };
    const args = ['run', ...DENO_PERMISSIONS, '--no-prompt', '--no-lock', 'flows/deno.mjs', JSON.stringify(denied)];
    return readProcessOutcome(await run(binary('deno'), args, 60_000));
  },
  { permissionScoped: true },
);
