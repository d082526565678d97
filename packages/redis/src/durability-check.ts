import type { Logger } from '@paymount/core';
import type { Cluster, Redis } from 'ioredis';
import { readDurabilitySettings, type DurabilitySettings } from './durability-settings';

/** One way the server's settings let it lose acknowledged keys. */
export interface DurabilityRisk {
  /** What was found, e.g. `maxmemory-policy allkeys-lru`. */
  found: string;
  risk: string;
  /** The setting that removes the risk, e.g. `appendonly yes`. */
  fix: string;
}

const AT_STAKE =
  'Redis can lose what the payment stores write: order attempts and locks (a payment in flight loses its lock, and the next payment of an order is settled from the records of the service: a declined first attempt is answered again) and handled webhook events (a handler could run again)';
const WHERE_TO_SET = 'Set it in redis.conf (or CONFIG SET, then CONFIG REWRITE), or in a managed Redis\'s parameter group.';

export function durabilityRisksOf(settings: DurabilitySettings): DurabilityRisk[] {
  const risks: DurabilityRisk[] = [];
  if (settings.appendonly !== 'yes') {
    const fix = 'appendonly yes';
    if (settings.save === '') {
      risks.push({ found: 'appendonly no and save ""', risk: 'nothing is persisted, so a restart loses every key', fix });
    } else if (settings.save === undefined) {
      risks.push({ found: 'aof_enabled:0', risk: 'a restart or crash loses every key written since the last RDB snapshot, or every key if snapshots are off', fix });
    } else {
      risks.push({ found: `appendonly no and save "${settings.save}"`, risk: 'only RDB snapshots persist, so a restart or crash loses every key written since the last one', fix });
    }
  }
  if (settings.maxmemoryPolicy !== 'noeviction') {
    risks.push({
      found: `maxmemory-policy ${settings.maxmemoryPolicy}`,
      // volatile-* included: every key these stores write carries a TTL.
      risk: 'keys are evicted under memory pressure, and every key these stores write has a TTL, so volatile-* policies evict them too',
      fix: 'maxmemory-policy noeviction',
    });
  }
  return risks;
}

/** What is wrong with the server, as one log line naming each risk and its fix; undefined when nothing is. */
async function verdictOf(client: Redis | Cluster, required: boolean): Promise<string | undefined> {
  let settings: DurabilitySettings;
  try {
    settings = await readDurabilitySettings(client);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return (
      `could not check whether Redis keeps what the payment stores write (${reason}). Verify by hand that it runs with \`appendonly yes\` and \`maxmemory-policy noeviction\`: ` +
      `otherwise order attempts, locks and handled webhook events can be lost and an order charged twice.${required ? ' requireDurability: true refuses a Redis it cannot check; once verified, leave requireDurability unset.' : ''}`
    );
  }
  const risks = durabilityRisksOf(settings);
  if (risks.length === 0) return undefined;
  const found = risks.map((risk) => `${risk.found}: ${risk.risk}; set \`${risk.fix}\``).join('. ');
  return `${AT_STAKE}. ${found}. ${WHERE_TO_SET}${required ? '' : ' Set requireDurability: true to refuse such a Redis.'}`;
}

/** Resolves true once `client` is ready, false if it ends first. */
function firstReady(client: Redis | Cluster): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (ready: boolean) => () => {
      client.off('ready', onReady);
      client.off('end', onEnd);
      resolve(ready);
    };
    const onReady = settle(true);
    const onEnd = settle(false);
    client.once('ready', onReady);
    client.once('end', onEnd);
  });
}

const verdicts = new WeakMap<Redis | Cluster, Promise<string | undefined>>();

/**
 * Checks, once per client and on its first connection, that the server
 * cannot lose what the stores write: AOF on (`appendonly yes`) and no
 * eviction (`maxmemory-policy noeviction`). What is wrong is logged once, a
 * warning, or an error when `required` (requireDurability), in which case the
 * resolved reason is what every store operation is then refused with.
 */
export function checkDurabilityOnce(client: Redis | Cluster, logger: Logger, required: boolean): Promise<string | undefined> {
  let verdict = verdicts.get(client);
  if (verdict === undefined) {
    verdict = firstReady(client).then(async (ready) => {
      if (!ready) return undefined;
      const problem = await verdictOf(client, required);
      if (problem !== undefined) {
        if (required) logger.error({ requireDurability: true }, `Redis stores refuse to run: ${problem}`);
        else logger.warn(problem);
      }
      return problem;
    });
    verdicts.set(client, verdict);
  }
  return verdict;
}
