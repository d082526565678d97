import { childArgs, serveHarness } from '../harness/child-side';
import { runClosedLoop, type ClosedLoopOptions } from '../harness/closed-loop';
import { callers, type ClientSide } from './client-calls';

/** A process that only calls the upstream stub: the client under test is what it spends its time in. */
serveHarness(async () => {
  const { side, upstream, connections } = childArgs<{ side: ClientSide; upstream: string; connections: number }>();
  const op = callers[side](upstream, connections);
  return {
    ready: { side },
    handle: (request) => runClosedLoop({ ...(request as Omit<ClosedLoopOptions, 'op' | 'concurrency'>), concurrency: connections, op }),
  };
});
