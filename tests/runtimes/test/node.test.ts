import { describeRuntimeFlows } from '../support/describe-runtime-flows';
import { readProcessOutcome } from '../support/flow-run';
import { run } from '../../../tools/child-processes';
import { RUNTIMES_DIR } from '../support/processes';

// The baseline: the same flow script on Node, from the built package, so a failure elsewhere is the runtime's.
describeRuntimeFlows('node', async (config) => readProcessOutcome(await run(process.execPath, ['flows/node.mjs', JSON.stringify(config)], { cwd: RUNTIMES_DIR, timeoutMs: 60_000 })));
