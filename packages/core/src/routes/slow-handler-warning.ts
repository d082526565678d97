import type { Logger } from '../logger';

/**
 * Starts a timer that warns, once, when inline handlers are still running
 * after `budgetMs`: the service stops waiting for the answer after about
 * 10 s and delivers again, so long work belongs on queued processing. The
 * returned stop() clears it.
 */
export function warnWhenSlow(logger: Logger, budgetMs: number, fields: Record<string, unknown>): () => void {
  const timer = setTimeout(() => {
    logger.warn(
      { ...fields, budgetMs },
      `webhook handlers are still running after ${budgetMs} ms, inside the delivery: the service waits about 10 s for the answer, then delivers again. ` +
        'Move long work to queued processing (webhook.processing: createWebhookQueue() from @paymount/bullmq: the route answers at once and workers run the handlers), ' +
        'or raise webhook.slowHandlerWarningMs if this is expected.',
    );
  }, budgetMs);
  // A warning alone must not keep the process alive.
  timer.unref?.();
  return () => clearTimeout(timer);
}
