import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { auditCharges } from '../support/charge-audit';
import { createAgent } from '../support/http';
import { startRedisShop, type RedisShop } from '../support/redis-shop';
import { Shopper } from '../support/shopper';

/**
 * Three instances of one merchant (Express, Koa, createNodeMiddleware) keep
 * their order guard in one Redis, which loses everything it held (FLUSHALL,
 * or a restart without persistence) while an order's payment is under way or
 * its hosted session is open. Whatever Redis forgot, the service must not be
 * asked to charge the order a second time (security review, finding 2).
 */
const SALE = '/v1/checkout/sale';
/** The first sale's answer is held this long: Redis loses its data in between. */
const HELD_ANSWER_MS = 3_000;
/** Long enough to wait for the held answer: the first instance sees the sale succeed. */
const CLIENT = { timeoutMs: 5_000, deadlineMs: 10_000 };
const POLL_MS = 20;

type Loss = 'FLUSHALL' | 'restart';

describe.skipIf(redisSkipped())('Redis losing its data under a merchant running three instances', () => {
  let redis: RedisServer;
  let running: RedisShop | undefined;
  const agent = createAgent(16);
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  afterAll(async () => {
    await agent.close();
    await redis.stop();
  });

  async function start(): Promise<RedisShop> {
    running = await startRedisShop({
      redisUrl: redis.url,
      adapters: ['express', 'koa', 'node'],
      client: CLIENT,
      // A webhook refused while Redis restarts comes again soon.
      sandbox: { webhookRetryDelaysMs: [50, 100, 200, 400, 800] },
    });
    await running.connected();
    return running;
  }

  async function lose(shop: RedisShop, loss: Loss): Promise<void> {
    if (loss === 'FLUSHALL') {
      await shop.stores[0]?.client.flushall();
      return;
    }
    await redis.stop();
    await redis.start();
    await shop.connected();
  }

  async function chargedOnce(shop: RedisShop, referenceOrderId: string): Promise<void> {
    await shop.sandbox.waitForDeliveries(10_000);
    const audit = auditCharges(shop.sandbox.charges(), shop.shop.handlerRuns, new Set([referenceOrderId]));
    console.info(`${expect.getState().currentTestName}: ${JSON.stringify(audit)}`);
    expect(audit.chargedTwice, 'orders charged twice').toEqual([]);
    expect(audit.charges).toBe(1);
    expect(audit.unreported).toEqual([]);
  }

  it.each<Loss>(['FLUSHALL', 'restart'])(
    '%s while the first wallet payment’s answer is held: another instance’s payment of the order charges nothing more',
    async (loss) => {
      const shop = await start();
      const order = shop.shop.addOrder(`loss-${loss}`, 2_500);
      const shopper = new Shopper(agent, shop.sandbox);
      const [first, second] = shop.instances;
      shop.sandbox.injectFault({ kind: 'delay', path: SALE, delayMs: HELD_ANSWER_MS });
      const firstPay = shopper.wallet(first?.routesUrl ?? '', order.id);
      // The sale is charged at once; only its answer is held.
      await vi.waitFor(() => expect(shop.sandbox.charges().map((charge) => charge.referenceOrderId)).toContain(order.referenceOrderId), {
        timeout: HELD_ANSWER_MS,
        interval: POLL_MS,
      });
      await lose(shop, loss);
      const secondPay = await shopper.wallet(second?.routesUrl ?? '', order.id);
      const firstAnswer = await firstPay;
      console.info(`${loss}: first instance ${firstAnswer.status} ${firstAnswer.body.status}, second ${secondPay.status} ${secondPay.body.status ?? secondPay.body.error?.code}`);
      await chargedOnce(shop, order.referenceOrderId);
    },
  );

  it('restart with a hosted session open: the order gets no second session that charges, both pages paid', async () => {
    const shop = await start();
    const order = shop.shop.addOrder('loss-session', 2_500);
    const shopper = new Shopper(agent, shop.sandbox);
    const [first, , third] = shop.instances;
    const opened = await shopper.checkout(first?.routesUrl ?? '', order.id, false);
    expect(opened.status).toBe(201);
    await lose(shop, 'restart');
    // The shopper opens checkout again on another instance, then pays both pages it was given.
    const again = await shopper.checkout(third?.routesUrl ?? '', order.id, false);
    const pages = [opened.body.checkoutUrl, again.body.checkoutUrl].filter((url): url is string => url !== undefined);
    const paid = [];
    for (const url of pages) paid.push((await shopper.payPage(url)).status);
    console.info(`session after restart: second checkout ${again.status}, ${new Set(pages).size} distinct pages, paid ${paid.join(', ')}`);
    await chargedOnce(shop, order.referenceOrderId);
  });
});
