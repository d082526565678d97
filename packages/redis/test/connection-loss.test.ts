import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger, PaymentEvent } from '@paymount/core';
import { createPaymentClient, type PaymentClient } from '@paymount/core';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whenReady } from './support/clients';
import { startMerchantApp, type MerchantApp } from './support/merchant-app';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';

/** Polls `find` every 20 ms, at most `attempts` times, for a value. */
async function eventually<T>(find: () => T | undefined, attempts = 250): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const found = find();
    if (found !== undefined) return found;
    await sleep(20);
  }
  throw new Error('condition not met in time');
}

describe.skipIf(redisSkipped())('Redis stopped mid-run', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let app: MerchantApp;
  let client: PaymentClient;
  const events: PaymentEvent[] = [];
  let duringHandler: (() => Promise<void>) | undefined;
  const logLines: string[] = [];
  const write = (obj: object | string, msg?: string) => void logLines.push(`${JSON.stringify(obj)} ${String(msg)}`);
  const logger: Logger = { debug: write, info: write, warn: write, error: write };
  const walletTokens: string[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    // Retries long enough in total (about 6 s) to span the outage below.
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400, 800, 1600, 3200] });
    app = await startMerchantApp(
      {
        sandbox: { ...sandbox },
        // Reconnect quickly, so the test does not wait for the default back-off.
        redis: { host: '127.0.0.1', port: redis.port, retryStrategy: () => 50 },
        keyPrefix: 'loss:',
      },
      async (event) => {
        events.push(event);
        await duringHandler?.();
      },
      { logger },
    );
    // A webhook before the first connection is answered 503 too; this test starts from a connected store.
    await whenReady(app.store.client);
    client = createPaymentClient({
      ...sandbox.clientOptions(),
      // The payments that trigger the deliveries log to the same place, wallet tokens passing through.
      logger,
    });
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  async function pay(referenceOrderId: string) {
    const walletToken = sandbox.mintWalletToken();
    walletTokens.push(walletToken);
    const result = await client.directPayment({
      referenceOrderId,
      description: 'Connection loss order',
      amount: { orderAmount: 2500, priceCurrency: 'USD' },
      cardEncryptedData: walletToken,
      notifyUrl: `${app.routesUrl}/webhook`,
    });
    const delivery = () => sandbox.deliveries().find((d: Delivery) => d.payload.transactionId === result.transactionId);
    return { transactionId: result.transactionId, delivery };
  }
  const handled = (transactionId: string | undefined) => events.filter((event) => event.transactionId === transactionId);

  it('answers 503 while Redis is down, runs no handler without a claim, and handles the retry once Redis is back', async () => {
    const before = await pay('loss-order-1');
    await sandbox.waitForDeliveries();
    expect(before.delivery()?.attempts.map((attempt) => attempt.status)).toEqual([200]);

    await redis.stop();
    const during = await pay('loss-order-2');
    await eventually(() => (during.delivery()?.attempts.some((attempt) => attempt.status === 503) ? true : undefined));
    expect(handled(during.transactionId)).toEqual([]);

    await redis.start();
    await sandbox.waitForDeliveries();
    const statuses = during.delivery()?.attempts.map((attempt) => attempt.status) ?? [];
    expect(statuses[0]).toBe(503);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(handled(during.transactionId)).toHaveLength(1);
    expect(handled(before.transactionId)).toHaveLength(1);
  });

  it('a handler that succeeded while Redis went away is answered 200 and not run again', async () => {
    let stopped = false;
    duringHandler = async () => {
      if (stopped) return;
      stopped = true;
      await redis.stop();
    };
    try {
      const paid = await pay('loss-order-3');
      await sandbox.waitForDeliveries();
      expect(paid.delivery()?.attempts.map((attempt) => attempt.status)).toEqual([200]);
      expect(handled(paid.transactionId)).toHaveLength(1);
    } finally {
      duringHandler = undefined;
      await redis.start();
    }
  });

  it('logged the outage, and no log line holds the API key, the webhook secret or a wallet token', () => {
    const log = logLines.join('\n');
    expect(log).toContain('STORE_UNAVAILABLE');
    for (const secret of [sandbox.apiKey, sandbox.webhookSecret, ...walletTokens]) expect(log).not.toContain(secret);
  });
});
