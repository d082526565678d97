import { dedupeKeyOf, signWebhook, verifyWebhook } from '@paymount/core';
import type { Delivery, Sandbox } from '@paymount/sandbox';
import { Redis } from 'ioredis';
import type { RedisServer } from '../../../../tools/redis-server';
import type { QueuedAppConfig } from './queued-app';

/** Short enough for a test, in the proportions the defaults keep: the job's lock outlives the event's claim. */
export const FAST_RECOVERY = {
  processingTtlMs: 1_000,
  workers: { concurrency: 2, lockDurationMs: 1_500, stalledIntervalMs: 500, heldRetryDelayMs: 300 },
} as const;

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
