import { FAULT_KINDS } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { auditCharges } from '../support/charge-audit';
import { FAULT_RUN_SANDBOX, notifies, RUN, runFaultMix, runLimitMs, runOrderCount } from '../support/fault-run';
import { createAgent } from '../support/http';
import { startRedisShop, type RedisShop } from '../support/redis-shop';

/**
 * The fault run (support/fault-run.ts) through three instances (Express, Koa,
 * createNodeMiddleware) sharing one Redis. At the end the ledger is audited:
 * no order charged twice, and every charge known to the merchant's handlers.
 */
describe.skipIf(redisSkipped())('three instances on one Redis under random service faults, late processing included', () => {
  let redis: RedisServer;
  let run: RedisShop | undefined;
  const agent = createAgent(RUN.concurrency * 4);
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await run?.close();
    await agent.close();
    await redis.stop();
  });

  const orders = runOrderCount();
  it(`${orders.toLocaleString('en')} orders paid twice, both ways, polled and reconciled: none charged twice, no charge unknown to the merchant`, async () => {
    run = await startRedisShop({ redisUrl: redis.url, adapters: ['express', 'koa', 'node'], client: RUN.client, notifies, sandbox: FAULT_RUN_SANDBOX });
    await run.connected();
    const { sandbox, shop } = run;
    const { report, final, chargedTwiceByPattern } = await runFaultMix(run, agent, async () => auditCharges(sandbox.charges(), shop.handlerRuns));

    console.info(`shared-Redis fault run: ${JSON.stringify(report)}`);
    console.info(`patterns of the orders charged twice: ${JSON.stringify(chargedTwiceByPattern)}`);

    // The schedule hit with every kind, late processing included.
    for (const kind of FAULT_KINDS) expect(report.faultsByKind[kind] ?? 0, kind).toBeGreaterThan(0);
    expect.soft(final.chargedTwice, 'orders charged twice').toEqual([]);
    expect.soft(final.unreported, 'charges no handler heard of').toEqual([]);
    expect.soft(final.reportedTwice, 'charges reported twice').toEqual([]);
  }, runLimitMs(orders));
});
