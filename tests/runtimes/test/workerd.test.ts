import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { describeRuntimeFlows } from '../support/describe-runtime-flows';
import type { FlowOutcome } from '../support/flow-run';
import { RUNTIMES_DIR } from '../support/processes';
import { bundleWorker } from '../support/worker-build';
import type { FlowResult } from '../flows/types';

/** workerd's own compatibility date (npm workerd 1.20260426), and no nodejs_compat: core must need none. */
const COMPATIBILITY_DATE = '2026-04-26';
const START_TIMEOUT_MS = 30_000;

describeRuntimeFlows('workerd', async (config): Promise<FlowOutcome> => {
  const bundle = await bundleWorker({ file: join(RUNTIMES_DIR, 'flows/worker.mjs') });
  const stillNode = bundle.nodeImports.length === 0 ? '' : ` [the bundle imports ${bundle.nodeImports.join(', ')}]`;
  // The Worker served by workerd on 127.0.0.1, as `wrangler dev` serves it: the sandbox's webhooks reach it over HTTP.
  const worker = new Miniflare({
    modules: true,
    script: bundle.code,
    scriptPath: join(RUNTIMES_DIR, 'flows/worker.bundle.mjs'),
    compatibilityDate: COMPATIBILITY_DATE,
    host: '127.0.0.1',
    port: 0,
    cf: false,
  });
  try {
    let timer: NodeJS.Timeout | undefined;
    const url = await Promise.race([
      worker.ready,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`workerd did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS))),
    ]).finally(() => clearTimeout(timer));
    const answer = await fetch(new URL('/run', url), { method: 'POST', body: JSON.stringify(config) });
    const text = await answer.text();
    if (answer.status !== 200) return { failure: `POST /run answered ${answer.status}: ${text.slice(0, 2000)}${stillNode}` };
    return { result: JSON.parse(text) as FlowResult };
  } catch (error) {
    return { failure: `${error instanceof Error ? error.message : String(error)}${stillNode}` };
  } finally {
    await worker.dispose().catch(() => {});
  }
});
