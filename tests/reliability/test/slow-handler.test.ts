import type { IdempotencyStore } from '@paymount/core';
import { RedisIdempotencyStore } from '@paymount/redis';
import { startSandbox, type Delivery } from '@paymount/sandbox';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer } from '../../../tools/redis-server';
import { startMerchantApp, type AdapterName } from '../support/apps';
import { captureLogger } from '../support/capture';
import { createAgent, postJson, type Answer } from '../support/http';
import { deliverTo, replayOf } from '../support/replay';
import { Shop, shopOptions } from '../support/shop';

/**
 * Security review, finding 5: an inline handler slower than the in-flight
 * claim TTL ran twice, concurrently, when a retry arrived after the claim
 * expired. Scaled down: the claim lives 300 ms unrenewed, the handler takes
 * 1.5 s, the service gives up waiting after 250 ms and retries while it runs,
 * and the test re-delivers the same body itself every 150 ms on top.
 */
const PROCESSING_TTL_MS = 300;
const SLOW_HANDLER_MS = 1_500;
const REDELIVERIES = 8;

const agent = createAgent(8);
const reports: string[] = [];
afterAll(async () => {
  console.info(`slow inline handler (${SLOW_HANDLER_MS} ms, claim TTL ${PROCESSING_TTL_MS} ms):\n${reports.join('\n')}`);
  await agent.close();
});

async function slowHandlerRun(adapter: AdapterName, store?: IdempotencyStore) {
  const sandbox = await startSandbox({
    allowLocalNotifyUrl: true,
    rateLimit: false,
    webhookTimeoutMs: 250,
    // Attempts at about 0, 0.35, 0.45, 0.65, 0.85 and 1.25 s, all while the handler runs, and 2.05 s after it.
    webhookRetryDelaysMs: [100, 100, 200, 200, 400, 800],
  });
  const shop = new Shop();
  const log = captureLogger();
  let running = 0;
  let mostAtOnce = 0;
  let completed = 0;
  let routesUrl = '';
  const app = await startMerchantApp(adapter, {
    ...shopOptions({
      sandbox,
      shop,
      logger: log.logger,
      routesUrl: () => routesUrl,
      handler: async (_event, apply) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await sleep(SLOW_HANDLER_MS);
        apply();
        completed += 1;
        running -= 1;
      },
    }),
    webhook: { secret: sandbox.webhookSecret, processingTtlMs: PROCESSING_TTL_MS },
    ...(store ? { store } : {}),
  });
  routesUrl = app.routesUrl;
  try {
    const order = shop.addOrder('slow1', 1_250);
    expect((await postJson(agent, `${routesUrl}/wallet/pay`, { orderId: order.id, token: sandbox.mintWalletToken() })).status).toBe(200);
    let delivery: Delivery | undefined;
    while ((delivery = sandbox.deliveries()[0]) === undefined || shop.handlerRuns.length === 0) await sleep(10);
    const direct: Answer[] = [];
    for (let sent = 0; sent < REDELIVERIES; sent += 1) {
      await sleep(150);
      direct.push(await deliverTo(agent, routesUrl, replayOf(sandbox, delivery)));
    }
    await sandbox.waitForDeliveries(10_000);
    const attempts = sandbox.deliveries()[0]!.attempts.map((attempt) => attempt.status ?? 'no answer');
    reports.push(
      `  ${adapter} + ${store ? 'Redis' : 'memory'} store: ${shop.handlerRuns.length} run(s), ${completed} completed, at most ${mostAtOnce} at once; ` +
        `service attempts ${attempts.join(' ')}; direct re-deliveries ${direct.map((answer) => answer.status).join(' ')}`,
    );
    expect(shop.handlerRuns).toHaveLength(1);
    expect(completed).toBe(1);
    expect(mostAtOnce).toBe(1);
    expect(shop.duplicateEffects()).toEqual([]);
    expect(direct.map((answer) => answer.status)).toEqual(Array.from({ length: REDELIVERIES }, () => 409));
    // The first attempt timed out, every retry while the handler ran was told to come back, the last found it done.
    expect(attempts[0]).toBe('no answer');
    expect(attempts.slice(1, -1).every((status) => status === 409)).toBe(true);
    expect(attempts.at(-1)).toBe(200);
    expect(sandbox.deliveries()[0]!.state).toBe('delivered');
    expect(log.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  } finally {
    await app.close();
    await sandbox.close();
  }
}

describe('finding 5: a slow inline webhook handler never runs twice at once', () => {
  it('express with the default memory store: runs once and completes once through the service retries and direct re-deliveries', async () => {
    await slowHandlerRun('express');
  });

  it.skipIf(redisSkipped())('koa with Redis: runs once and completes once through the service retries and direct re-deliveries', async () => {
    const redis = await startRedisServer();
    const store = new RedisIdempotencyStore({ connection: redis.url, keyPrefix: 'slow:' });
    try {
      if (store.client.status !== 'ready') await once(store.client, 'ready', { signal: AbortSignal.timeout(10_000) });
      await slowHandlerRun('koa', store);
    } finally {
      await store.close();
      await redis.stop();
    }
  });
});
