import type { Cluster, Redis } from 'ioredis';

/** The server settings that decide whether Redis can lose keys it acknowledged. */
export interface DurabilitySettings {
  /** `appendonly`: 'yes' or 'no'. */
  appendonly: string;
  /** `save`: the RDB snapshot schedule ('' for none); undefined when only INFO could be read, which does not show it. */
  save: string | undefined;
  /** `maxmemory-policy`, e.g. 'noeviction', 'allkeys-lru'. */
  maxmemoryPolicy: string;
  /** Where they were read: CONFIG GET, or INFO where CONFIG is disabled (managed Redis renames it). */
  source: 'CONFIG' | 'INFO';
}

async function configValue(client: Redis | Cluster, name: string): Promise<string> {
  const answer = (await client.call('CONFIG', 'GET', name)) as string[];
  const value = answer[1];
  if (value === undefined) throw new Error(`CONFIG GET ${name} answered nothing`);
  return value;
}

function infoField(info: string, field: string): string {
  const value = new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  if (value === undefined) throw new Error(`INFO has no ${field}`);
  return value;
}

/**
 * Reads the settings with CONFIG GET or, where CONFIG is refused, with INFO
 * (`aof_enabled`, `maxmemory_policy`). Throws, with both reasons, when
 * neither can be read.
 */
export async function readDurabilitySettings(client: Redis | Cluster): Promise<DurabilitySettings> {
  let configError: unknown;
  try {
    const [appendonly, save, maxmemoryPolicy] = await Promise.all(
      ['appendonly', 'save', 'maxmemory-policy'].map((name) => configValue(client, name)),
    );
    return { appendonly: appendonly!, save: save!, maxmemoryPolicy: maxmemoryPolicy!, source: 'CONFIG' };
  } catch (error) {
    configError = error;
  }
  try {
    const info = (await client.call('INFO', 'persistence')) as string;
    const memory = (await client.call('INFO', 'memory')) as string;
    return {
      appendonly: infoField(info, 'aof_enabled') === '1' ? 'yes' : 'no',
      save: undefined,
      maxmemoryPolicy: infoField(memory, 'maxmemory_policy'),
      source: 'INFO',
    };
  } catch (infoError) {
    const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
    throw new Error(`CONFIG GET: ${reason(configError)}; INFO: ${reason(infoError)}`, { cause: infoError });
  }
}
