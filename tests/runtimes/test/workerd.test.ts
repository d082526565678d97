import { describeRuntimeFlows } from '../support/describe-runtime-flows';
import type { FlowOutcome } from '../support/flow-run';
import { startWorker, type RunningWorker } from '../support/workerd';
import type { FlowResult } from '../flows/types';

describeRuntimeFlows(
  'workerd',
  async (config): Promise<FlowOutcome> => {
    let worker: RunningWorker | undefined;
    try {
      worker = await startWorker('flows/worker.mjs');
      const answer = await fetch(new URL('/run', worker.url), { method: 'POST', body: JSON.stringify(config) });
      const text = await answer.text();
      if (answer.status !== 200) return { failure: `POST /run answered ${answer.status}: ${text.slice(0, 2000)}${worker.stillNode}` };
      return { result: JSON.parse(text) as FlowResult };
    } catch (error) {
      return { failure: error instanceof Error ? error.message : String(error) };
    } finally {
      await worker?.dispose();
    }
  },
  { isolatedMemory: 'Cloudflare Workers (workerd)', refusalLooksLikeLoss: true },
);
