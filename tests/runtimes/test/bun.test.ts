import { describeRuntimeFlows } from '../support/describe-runtime-flows';
import { readProcessOutcome } from '../support/flow-run';
import { binary, run } from '../../../tools/child-processes';
import { RUNTIMES_DIR } from '../support/processes';

describeRuntimeFlows('bun', async (config) => readProcessOutcome(await run(binary('bun'), ['flows/bun.mjs', JSON.stringify(config)], { cwd: RUNTIMES_DIR, timeoutMs: 60_000 })));
