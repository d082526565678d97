import { dedupeKeyOf, signWebhook, verifyWebhook } from '@paymount/core';
import type { Delivery, Sandbox } from '@paymount/sandbox';
import { Redis } from 'ioredis';
import type { RedisServer } from '../../../../tools/redis-server';
import type { QueuedAppConfig } from './queued-app';

/**
 * Short enough for a test, in the proportions the defaults keep: the job's lock outlives the event's claim.
 * Long enough that a live handler keeps both on a loaded machine: the claim is renewed every third of its TTL
 * and the lock every half of its duration, so a renewal can come 2 s late before either lapses.
 */
export const FAST_RECOVERY = {
  processingTtlMs: 3_000,
  workers: { concurrency: 2, lockDurationMs: 4_000, stalledIntervalMs: 1_000, heldRetryDelayMs: 300 },
} as const;

/** A handler the test kills mid-run once it has started (or written): long enough that it is still running when the kill lands on a loaded machine, and longer than the claim's TTL, so its claim is renewed. */
export const KILLED_HANDLER_MS = 5_000;

export function appConfig(sandbox: Sandbox, redis: RedisServer, namespace: string, extra: Partial<QueuedAppConfig> = {}): QueuedAppConfig {
  return {
    client: { apiKey: sandbox.apiKey, baseUrl: sandbox.url, appId: sandbox.appId, merchantId: sandbox.merchantId, localDevelopment: true },
    webhookSecret: sandbox.webhookSecret,
    redisUrl: redis.url,
    namespace,
    serve: true,
    ...extra,
  };
}

/** A plain client for reading what handlers recorded. */
export function adminClient(redis: RedisServer): Redis {
  const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  return client;
}

/** A hash of counters as numbers. */
export async function counts(client: Redis, key: string): Promise<Record<string, number>> {
  const raw = await client.hgetall(key);
  return Object.fromEntries(Object.entries(raw).map(([field, value]) => [field, Number(value)]));
}

/** The dedupe key of a delivery's event: what the handler records its runs under. */
export async function eventKeyOf(sandbox: Sandbox, delivery: Delivery): Promise<string> {
  const { body, headers } = signWebhook({ rawBody: delivery.body, secret: sandbox.webhookSecret, deliveryId: 'key-of' });
  return dedupeKeyOf(await verifyWebhook({ rawBody: body, headers, secret: sandbox.webhookSecret }));
}
