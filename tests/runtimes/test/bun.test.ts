import { describeRuntimeFlows } from '../support/describe-runtime-flows';
import { readProcessOutcome } from '../support/flow-run';
import { binary, run } from '../support/processes';

describeRuntimeFlows('bun', async (config) => readProcessOutcome(await run(binary('bun'), ['flows/bun.mjs', JSON.stringify(config)], 60_000)));
