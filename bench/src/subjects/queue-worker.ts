import { childArgs, serveHarness } from '../harness/child-side';
import { setupOf, type QueuedVariant } from './apps/paymount-options';
import { startQueuedWorkers } from './apps/queued-workers';

export interface QueueWorkerArgs {
  upstream: string;
  redisUrl: string;
  queue: QueuedVariant;
}

/** `{ run: false }` pauses the worker (its running jobs finish first), `{ run: true }` sets it going. */
export interface QueueWorkerRequest {
  run: boolean;
}

/** A worker process of queued webhook processing, as a merchant runs beside the app: paused until told to run. */
serveHarness(async () => {
  const { upstream, redisUrl, queue } = childArgs<QueueWorkerArgs>();
  const { worker } = startQueuedWorkers(upstream, await setupOf({ redisUrl, queue }), queue);
  await worker.pause();
  return {
    ready: { pid: process.pid },
    handle: async (request) => {
      if ((request as QueueWorkerRequest).run) worker.resume();
      else await worker.pause();
      return null;
    },
  };
});
