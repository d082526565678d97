import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createPaymentClient, signWebhook, type PaymentClient, type PaymentEvent } from '@paymount/core';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeClients, whenReady } from './support/clients';
import { startMerchantApp, type MerchantApp } from './support/merchant-app';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';

/**
 * Replays of a captured delivery against a Redis that cannot grow: 3 MB and
 * `noeviction`. The attacker picks the longest delivery ids accepted (128
 * characters), so a store that wrote a key per replayed delivery id would
 * fill it within about 9,000 replays and refuse every later claim, genuine
 * ones too.
 */
const FLOOD = 10_000;
// The longest X-Client-Request-Id the verifier accepts: the service's own limit (docs/service-contract.md#limits).
const LONGEST_DELIVERY_ID = 64;
const CONCURRENCY = 48;
const DUPLICATE = { received: true, duplicate: true };

describe.skipIf(redisSkipped())('replays against Redis with maxmemory 3mb and noeviction', () => {
  let redis: RedisServer;
  let admin: Redis;
  let sandbox: Sandbox;
  let app: MerchantApp;
  let client: PaymentClient;
  const events: PaymentEvent[] = [];
  /** referenceOrderIds whose first handler run fails. */
  const failFirstRun = new Set<string>();

  beforeAll(async () => {
    redis = await startRedisServer();
    admin = adminClient(redis.url);
    await admin.config('SET', 'maxmemory', '3mb');
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false, webhookRetryDelaysMs: [3_000, 3_000, 3_000] });
    app = await startMerchantApp({ sandbox: { ...sandbox }, redis: { host: '127.0.0.1', port: redis.port }, keyPrefix: 'replay:' }, (event) => {
      if (failFirstRun.delete(event.referenceOrderId ?? '')) throw new Error('the order database is unavailable');
      events.push(event);
    });
    await whenReady(app.store.client);
    client = createPaymentClient(sandbox.clientOptions());
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await closeClients();
    await sandbox?.close();
    await redis?.stop();
  });

  /** Pays through the service, with the app as notifyUrl; the sandbox then delivers the signed result. */
  async function pay(referenceOrderId: string): Promise<string> {
    const result = await client.directPayment({
      referenceOrderId,
      description: 'Replay order',
      amount: { orderAmount: 2100, priceCurrency: 'USD' },
      cardEncryptedData: sandbox.mintWalletToken(),
      notifyUrl: `${app.routesUrl}/webhook`,
    });
    return result.transactionId!;
  }
  const deliveryOf = (transactionId: string) => sandbox.deliveries().find((d: Delivery) => d.payload.transactionId === transactionId);
  const runsOf = (transactionId: string) => events.filter((event) => event.transactionId === transactionId).length;

  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  afterAll(() => agent.destroy());

  /** The captured body, re-sent with fresh headers of the attacker's choosing (X-Signature covers the body alone). */
  function replay(delivery: Delivery, deliveryId: string = randomUUID()): Promise<{ status: number; body: unknown }> {
    const { body, headers } = signWebhook({ rawBody: delivery.body, secret: sandbox.webhookSecret, deliveryId });
    return new Promise((resolve, reject) => {
      const req = request(`${app.routesUrl}/webhook`, { method: 'POST', headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it(`${FLOOD.toLocaleString('en')} replays under new delivery ids: all duplicates, no key added, and genuine deliveries afterwards are handled`, async () => {
    const transactionId = await pay('replay-flooded');
    await sandbox.waitForDeliveries(10_000);
    const captured = deliveryOf(transactionId)!;
    expect(captured.state).toBe('delivered');
    const keysBefore = (await admin.keys('replay:*')).sort();

    const answers = new Map<string, number>();
    let sent = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < FLOOD) {
          sent += 1;
          const answer = await replay(captured, randomUUID().padEnd(LONGEST_DELIVERY_ID, 'x'));
          const outcome = JSON.stringify(answer.body) === JSON.stringify(DUPLICATE) ? 'duplicate' : String(answer.status);
          answers.set(outcome, (answers.get(outcome) ?? 0) + 1);
        }
      }),
    );
    expect(Object.fromEntries(answers)).toEqual({ duplicate: FLOOD });
    expect((await admin.keys('replay:*')).sort()).toEqual(keysBefore);
    // One key per event, whatever its deliveries.
    expect(keysBefore).toHaveLength(1);
    expect(runsOf(transactionId)).toBe(1);

    const genuine = await Promise.all(['replay-after-1', 'replay-after-2', 'replay-after-3'].map(pay));
    await sandbox.waitForDeliveries(10_000);
    for (const id of genuine) {
      expect(deliveryOf(id)?.attempts.map((attempt) => attempt.status)).toEqual([200]);
      expect(runsOf(id)).toBe(1);
    }
    expect(await admin.dbsize()).toBe(keysBefore.length + genuine.length);
  }, 240_000);

  it("E1's body under the delivery id of E2, which awaits its retry, does not make E2 a duplicate: E2 runs once", async () => {
    // Room again, whatever the flood above left: this finding is about keys, not memory.
    await admin.flushdb();
    const e1 = await pay('replay-e1');
    await sandbox.waitForDeliveries(10_000);
    failFirstRun.add('replay-e2');
    const e2 = await pay('replay-e2');
    // E2's first delivery failed (500); the sandbox retries it 3 s later: the replay below comes first, however busy the machine.
    for (let wait = 0; deliveryOf(e2)?.attempts[0]?.status !== 500; wait += 1) {
      expect(wait).toBeLessThan(250);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(deliveryOf(e2)?.state).toBe('pending');
    expect(await replay(deliveryOf(e1)!, deliveryOf(e2)!.deliveryId)).toEqual({ status: 200, body: DUPLICATE });

    await sandbox.waitForDeliveries(10_000);
    expect(deliveryOf(e2)?.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    expect(runsOf(e2)).toBe(1);
    expect(runsOf(e1)).toBe(1);
  });
});
