import { setTimeout as sleep } from 'node:timers/promises';
import { startWebhookWorkers, type WebhookWorkers } from '@paymount/bullmq';
import { createPaymentRoutes } from '@paymount/core';
import { countEvent, paymountOptions, type AppSetup, type QueuedVariant } from './paymount-options';

/**
 * Workers on the variant's queue, running the routes' handler as a worker
 * process does (routes created with the app's options): it takes
 * `handlerMs`, then counts the event.
 */
export function startQueuedWorkers(upstream: string, setup: AppSetup, { handlerMs, concurrency }: QueuedVariant): WebhookWorkers {
  if (setup.processing === undefined) throw new Error('queued workers need a variant with queue and redisUrl');
  const onEvent = async () => {
    await sleep(handlerMs);
    countEvent();
  };
  const routes = createPaymentRoutes(paymountOptions(upstream, onEvent, setup));
  return startWebhookWorkers(setup.processing, { routes, concurrency });
}
