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
 * expired. Scaled down: the claim lives 3 s unrenewed, the handler takes
 * 8 s, the service gives up waiting after 2 s and retries while it runs, and
 * the test re-delivers the same body itself every 500 ms on top. Each verdict
 * leaves a busy machine 2 s or more: a renewal (every third of the TTL) may
 * come that late, a 409 that late, the last 409s are due 4 s before the
 * handler ends, and the service's last attempt 2.8 s after.
 */
const PROCESSING_TTL_MS = 3_000;
const SLOW_HANDLER_MS = 8_000;
const REDELIVERIES = 8;
const REDELIVERY_EVERY_MS = 500;

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
    webhookTimeoutMs: 2_000,
    // Attempts at about 0, 2.1, 2.2, 2.4, 2.6, 3 and 3.8 s, all while the handler runs, and 10.8 s after it.
    webhookRetryDelaysMs: [100, 100, 200, 200, 400, 800, 7_000],
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
      await sleep(REDELIVERY_EVERY_MS);
      direct.push(await deliverTo(agent, routesUrl, replayOf(sandbox, delivery)));
    }
    await sandbox.waitForDeliveries(30_000);
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

// Side by side: each run mostly waits on its slow handler.
describe.concurrent('finding 5: a slow inline webhook handler never runs twice at once', () => {
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
