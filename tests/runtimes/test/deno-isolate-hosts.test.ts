import { describe, expect, it } from 'vitest';
import { readProcessOutcome } from '../support/flow-run';
import { binary, run } from '../../../tools/child-processes';
import { RUNTIMES_DIR } from '../support/processes';

/*
 * Deno serves every request from one process, except on hosts that run it in
 * isolates: there the routes must say, once at start-up, that their in-memory
 * stores protect nothing across requests. Deno Deploy is told by the
 * DENO_DEPLOYMENT_ID it sets (and the env access it grants); Netlify's and
 * Supabase's edge functions by the globals they add, set here before core loads.
 */
const ISOLATE_WARNING = 'in-memory stores protect nothing across requests';

async function warningsOnDeno(options: { allowEnv?: boolean; env?: Record<string, string>; globals?: Record<string, unknown> } = {}): Promise<string[]> {
  const args = ['run', '--no-prompt', '--no-lock', ...(options.allowEnv ? ['--allow-env=DENO_DEPLOYMENT_ID'] : []), 'flows/isolate-warning.mjs', JSON.stringify(options.globals ?? {})];
  const outcome = readProcessOutcome(await run(binary('deno'), args, { cwd: RUNTIMES_DIR, timeoutMs: 30_000, env: options.env ?? {} }));
  if (outcome.result === undefined) throw new Error(`deno did not create the routes: ${outcome.failure}`);
  return (outcome.result.log ?? []).filter((line) => line.includes(ISOLATE_WARNING));
}

describe('Deno on isolate hosts', () => {
  it('on Deno Deploy (DENO_DEPLOYMENT_ID set, env access granted) warns once, naming Deno Deploy and what to pass: Deno KV’s stores', async () => {
    const warnings = await warningsOnDeno({ allowEnv: true, env: { DENO_DEPLOYMENT_ID: 'x1y2z3' } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('on Deno Deploy:');
    expect(warnings[0]).toContain('`denoKvStores(await Deno.openKv())` from @paymount/deno-kv');
    expect(warnings[0]).toContain('Pass stores every isolate shares');
  });

  it('a local deno run without --allow-env loads and says nothing, even with DENO_DEPLOYMENT_ID set: reading it cannot throw', async () => {
    expect(await warningsOnDeno({ env: { DENO_DEPLOYMENT_ID: 'x1y2z3' } })).toEqual([]);
  });

  it('a local deno run with env access and no DENO_DEPLOYMENT_ID says nothing', async () => {
    expect(await warningsOnDeno({ allowEnv: true })).toEqual([]);
  });

  it.each([
    ['Netlify Edge Functions', { Netlify: { env: {} } }],
    ['Supabase Edge Functions', { EdgeRuntime: { waitUntil: 'a function there' } }],
  ])('on %s (its global present) warns once, naming it', async (host, globals) => {
    const warnings = await warningsOnDeno({ globals });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`on ${host}:`);
  });
});
