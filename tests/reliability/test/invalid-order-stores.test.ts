import { MemoryOrderAttemptStore, type OrderAttemptStore } from '@paymount/core';
import { createPostgresStores, fromPg, migrate } from '@paymount/postgres';
import { RedisOrderAttemptStore } from '@paymount/redis';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { once } from 'node:events';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPool } from '../../../tools/postgres-pool';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { startMerchantApp } from '../support/apps';
import { captureLogger } from '../support/capture';
import { createAgent, postJson, send } from '../support/http';
import { Shop, shopOptions } from '../support/shop';

/**
 * The rules before the stores: an order from resolveOrder that breaks a rule
 * of the payment request made from it is answered INVALID_ORDER with its fix
 * on every store, and no store is called for it. Before, the store got the
 * attempt first: PostgreSQL refused a decimal amount for its bigint column,
 * which the routes answered 503 STORE_UNAVAILABLE, "retry shortly".
 */

interface StoreUnderTest {
  store: OrderAttemptStore;
  /** What the store holds for the order, read from the store itself: an attempt, a lock. */
  heldFor(referenceOrderId: string): Promise<string[]>;
}

/** Each broken order, and the rule the answer must name. */
const BROKEN_ORDERS = [
  { what: 'a decimal amount', orderId: 'decimal', referenceOrderId: 'order-decimal', orderAmount: 12.5, rule: 'integer_minor_units', path: 'amount.orderAmount', fix: /correct the order/ },
  { what: 'a negative amount', orderId: 'negative', referenceOrderId: 'order-negative', orderAmount: -1250, rule: 'non_negative', path: 'amount.orderAmount', fix: /correct the order/ },
  // A UUID: 36 characters, the service allows 32. Its fix is about the id itself.
  {
    what: 'a referenceOrderId over 32 characters',
    orderId: 'uuid',
    referenceOrderId: '0b5e7a52-4d6c-4b1e-9f3a-2c8d51e0a7b4',
    orderAmount: 1250,
    rule: 'max_length',
    path: 'referenceOrderId',
    fix: /referenceOrderId of 36 characters.*randomUUID\(\)\.replaceAll/,
  },
];

/** The store as the routes get it, every call it receives recorded (and passed on unchanged). */
function recorded(store: OrderAttemptStore, calls: string[]): OrderAttemptStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(`${String(key)}(${typeof args[0] === 'string' ? args[0] : (args[0] as { referenceOrderId?: string } | undefined)?.referenceOrderId})`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Through the store's own interface: its attempt, and whether its lock is held (taken and given back to find out). */
async function heldThroughInterface(store: OrderAttemptStore, referenceOrderId: string): Promise<string[]> {
  const held = (await store.get(referenceOrderId)) === undefined ? [] : ['attempt'];
  const token = await store.lock(referenceOrderId, 1_000);
  if (token === undefined) return [...held, 'lock'];
  await store.unlock(referenceOrderId, token);
  return held;
}

describe.skipIf(redisSkipped() || postgresSkipped)('an order breaking the request rules, on the memory, Redis and PostgreSQL stores', () => {
  const agent = createAgent(4);
  let sandbox: Sandbox;
  let redis: RedisServer;
  let postgres: PostgresServer;
  let pool: pg.Pool;
  let redisStore: RedisOrderAttemptStore;
  const stores: Record<'memory' | 'Redis' | 'PostgreSQL', () => StoreUnderTest> = {
    memory: () => {
      const store = new MemoryOrderAttemptStore();
      return { store, heldFor: (id) => heldThroughInterface(store, id) };
    },
    Redis: () => ({
      store: redisStore,
      heldFor: async (id) => (await redisStore.client.keys(`${redisStore.keyPrefix}*`)).filter((key) => key.includes(id)),
    }),
    PostgreSQL: () => ({
      store: createPostgresStores(fromPg(pool)).orders,
      heldFor: async (id) =>
        (
          await pool.query<{ held: string }>(
            `SELECT 'attempt' AS held FROM paymount_order_attempts WHERE reference_order_id = $1
             UNION ALL SELECT 'lock' FROM paymount_order_locks WHERE reference_order_id = $1`,
            [id],
          )
        ).rows.map((row) => row.held),
    }),
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, log: false });
    // Persistent, as a merchant's should be: its store then has nothing to warn about.
    redis = await startRedisServer(['--appendonly', 'yes']);
    redisStore = new RedisOrderAttemptStore({ connection: redis.url, keyPrefix: 'invalid-order:' });
    if (redisStore.client.status !== 'ready') await once(redisStore.client, 'ready', { signal: AbortSignal.timeout(10_000) });
    postgres = await startPostgresServer();
    pool = testPool(postgres.url, { max: 4 });
    // At start-up, as the README says: the tables are there before any request, so reading them proves what a request left.
    await migrate(fromPg(pool));
  });
  afterAll(async () => {
    await agent.close();
    await redisStore?.close();
    await pool?.end();
    await redis?.stop();
    postgres?.destroy();
    await sandbox?.close();
  });

  it.each(Object.keys(stores) as Array<keyof typeof stores>)('%s: checkout, wallet pay and status answer INVALID_ORDER with the fix, the store untouched', async (name) => {
    const { store, heldFor } = stores[name]();
    const calls: string[] = [];
    const shop = new Shop();
    const log = captureLogger();
    let routesUrl = '';
    const app = await startMerchantApp('express', {
      ...shopOptions({ sandbox, shop, logger: log.logger, routesUrl: () => routesUrl }),
      orders: { store: recorded(store, calls) },
    });
    routesUrl = app.routesUrl;
    try {
      for (const broken of BROKEN_ORDERS) {
        shop.orders.set(broken.orderId, {
          id: broken.orderId,
          referenceOrderId: broken.referenceOrderId,
          amount: { orderAmount: broken.orderAmount, priceCurrency: 'USD' },
          description: `Order ${broken.orderId}`,
          state: 'open',
        });
        for (const [route, body] of [
          ['checkout', { orderId: broken.orderId }],
          ['wallet/pay', { orderId: broken.orderId, token: sandbox.mintWalletToken() }],
          ['status', undefined],
        ] as const) {
          const answer =
            body === undefined ? await send(agent, `${routesUrl}/${route}?orderId=${broken.orderId}`) : await postJson(agent, `${routesUrl}/${route}`, body);
          expect({ route, what: broken.what, status: answer.status, answer: answer.json }).toMatchObject({
            status: 500,
            answer: { error: { code: 'INVALID_ORDER' } },
          });
        }
        // One error line per route, without configuration: the broken rule and how to fix it.
        const logged = log.entries.filter((entry) => entry.fields.referenceOrderId === broken.referenceOrderId);
        expect(logged.map((entry) => [entry.level, entry.fields.route, entry.fields.code])).toEqual([
          ['error', 'POST /checkout', 'INVALID_ORDER'],
          ['error', 'POST /wallet/pay', 'INVALID_ORDER'],
          ['error', 'GET /status', 'INVALID_ORDER'],
        ]);
        for (const entry of logged) {
          expect(entry.fields.fix).toMatch(broken.fix);
          expect(entry.fields.issues).toContainEqual(expect.objectContaining({ path: broken.path, rule: broken.rule }));
        }
        expect({ what: broken.what, calls, held: await heldFor(broken.referenceOrderId) }).toEqual({ what: broken.what, calls: [], held: [] });
      }
      const decimal = log.entries.find((entry) => entry.fields.referenceOrderId === 'order-decimal')!;
      expect(JSON.stringify(decimal.fields.issues)).toMatch(/toMinorUnits\(value, currency\)/);
      expect(log.entries.map((entry) => entry.line).join('\n')).not.toMatch(/STORE_UNAVAILABLE|retry shortly/);
      expect(sandbox.charges().filter((charge) => BROKEN_ORDERS.some((broken) => broken.referenceOrderId === charge.referenceOrderId))).toEqual([]);

      // The same routes and store take a valid order: the store was wired, and is called once the order is sound.
      shop.addOrder(`valid-${name}`, 1_250);
      const paid = await postJson(agent, `${routesUrl}/wallet/pay`, { orderId: `valid-${name}`, token: sandbox.mintWalletToken() });
      expect(paid).toMatchObject({ status: 200, json: { status: 'succeeded' } });
      expect(calls).toContain(`lock(ref-valid-${name})`);
    } finally {
      await app.close();
    }
  });
});
