import type { Logger } from '@paymount/core';
import { durabilityRisksOf, readDurabilitySettings } from '@paymount/redis';
import type { Redis } from 'ioredis';
import { redisAddress } from './unreachable-redis';

/*
 * The queue holds events the service was told were received: it will not send
 * them again. A Redis that forgets on restart or evicts under memory pressure
 * loses them silently, so the queue checks its server the way @paymount/redis
 * checks the stores' (the same settings and fixes), once, on first connection.
 */
const AT_STAKE =
  'the webhook events it holds were answered 200 ("queued") to the service, which will not send them again: a Redis that loses them loses the events';
const RECOVERY =
  'Until it is fixed, after any Redis restart run paymentRoutes.reconcile({ olderThanMs: 0 }) (payments) and paymentRoutes.reconcileRefunds(ids) with the refunds issued since (see "When the queue\'s Redis loses data" on the documentation\'s Queued handlers (BullMQ) page).';
const WHERE_TO_SET = 'Set it in redis.conf (or CONFIG SET, then CONFIG REWRITE), or in a managed Redis\'s parameter group.';

/** What is wrong with the queue's server, as one log line with each fix; undefined when nothing is. */
export async function queueDurabilityProblem(client: Redis, queue: string): Promise<string | undefined> {
  const where = `webhook queue ${queue}: Redis at ${redisAddress(client)}`;
  let risks;
  try {
    risks = durabilityRisksOf(await readDurabilitySettings(client));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `${where} could not be checked for persistence (${reason}): ${AT_STAKE}. Verify by hand that it runs with \`appendonly yes\` and \`maxmemory-policy noeviction\`. ${RECOVERY}`;
  }
  if (risks.length === 0) return undefined;
  const found = risks.map((risk) => `${risk.found}: set \`${risk.fix}\``).join('; ');
  return `${where} can lose queued events (${found}): ${AT_STAKE}. ${WHERE_TO_SET} ${RECOVERY}`;
}

/** Checks the queue's Redis once it is first ready, and warns with the fix when it can lose queued events. */
export function warnIfQueueCanLoseEvents(client: Redis, logger: Logger, queue: string): void {
  client.once('ready', () => {
    void queueDurabilityProblem(client, queue).then((problem) => {
      if (problem !== undefined) logger.warn({ queue, redis: redisAddress(client) }, problem);
    });
  });
}
