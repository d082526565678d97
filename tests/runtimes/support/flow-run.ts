import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { freePort } from '../../../tools/free-port';
import { sandboxService } from '../../../tools/sandbox-service';
import type { FlowConfig, FlowResult } from '../flows/types';
import { RESULT_MARKER } from '../flows/report.mjs';
import { PARTIAL_REFUND_CENTS } from './flow-checks';
import type { ProcessOutcome } from '../../../tools/child-processes';

/** A runtime's flow run: its result, or why there is none (quoted in the failing tests). */
export interface FlowOutcome {
  result?: FlowResult;
  /** How the run failed before reporting: the runtime's own words. */
  failure?: string;
}

/** Starts `launch`'s runtime on the flows against a fresh sandbox on Node. */
export type Launch = (config: FlowConfig, sandbox: Sandbox) => Promise<FlowOutcome>;

/** A sandbox for one runtime's run, and the config the flows get: order ids prefixed by the runtime's name. */
export async function startFlowSandbox(runtime: string): Promise<{ sandbox: Sandbox; config: FlowConfig }> {
  // Local notify URLs (the routes listen on 127.0.0.1) and quick retries, so a delivery refused while a runtime starts up is repeated at once.
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400] });
  const order = (flow: string) => `rt-${runtime}-${flow}`;
  const config: FlowConfig = {
    service: sandboxService(sandbox),
    refundCents: PARTIAL_REFUND_CENTS,
    orders: {
      checkout: order('checkout'),
      wallet: order('wallet'),
      unsent: order('unsent'),
      denied: order('denied'),
      refused: order('refused'),
      currency: order('currency'),
      ownFetch: order('own-fetch'),
    },
    walletTokens: {
      wallet: sandbox.mintWalletToken(),
      unsent: sandbox.mintWalletToken(),
      denied: sandbox.mintWalletToken(),
      refused: sandbox.mintWalletToken(),
      currency: sandbox.mintWalletToken(),
      ownFetch: sandbox.mintWalletToken(),
    },
    // A port that was free a moment ago, on the sandbox's host (inside Deno's --allow-net scope): nothing listens there.
    refusedBaseUrl: `http://127.0.0.1:${await freePort()}`,
  };
  return { sandbox, config };
}

/** The result a flow process printed, or its exit and output when it printed none. */
export function readProcessOutcome(outcome: ProcessOutcome): FlowOutcome {
  const line = outcome.stdout.split('\n').findLast((l) => l.startsWith(RESULT_MARKER));
  if (line !== undefined) return { result: JSON.parse(line.slice(RESULT_MARKER.length)) as FlowResult };
  return { failure: `exit ${outcome.code}; stderr: ${outcome.stderr.trim().slice(-2000) || '(empty)'}; stdout: ${outcome.stdout.trim().slice(-1000) || '(empty)'}` };
}
