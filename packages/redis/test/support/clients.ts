import { once } from 'node:events';
import { Redis, type Cluster, type RedisOptions } from 'ioredis';
import { createRedisClient } from '../../src';

const open: Redis[] = [];

/** A fail-fast client for the store under test; closed by closeClients(). */
export function storeClient(url: string, overrides: RedisOptions = {}): Redis {
  const client = createRedisClient({ ...redisOptionsOf(url), ...overrides });
  client.on('error', () => {});
  open.push(client);
  return client;
}

/** A plain client for looking at what the store wrote. */
export function adminClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  open.push(client);
  return client;
}

export async function closeClients(): Promise<void> {
  await Promise.all(open.splice(0).map((client) => client.quit().catch(() => client.disconnect())));
}

function redisOptionsOf(url: string): { host: string; port: number } {
  const { hostname, port } = new URL(url);
  return { host: hostname, port: Number(port) };
}

/** Resolves once the client is connected and ready (again), within `timeoutMs`. */
export async function whenReady(client: Redis | Cluster, timeoutMs = 10_000): Promise<void> {
  if (client.status === 'ready') return;
  await once(client, 'ready', { signal: AbortSignal.timeout(timeoutMs) });
}
