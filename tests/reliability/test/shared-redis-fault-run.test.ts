import type { MerchantOrder } from '@paymount/core';
import { FAULT_KINDS } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { tally } from '../support/attempts';
import { auditCharges, type ChargeAudit } from '../support/charge-audit';
import { createAgent, inPool } from '../support/http';
import { startRedisShop, type RedisShop } from '../support/redis-shop';
import { SEED } from '../support/seed';
import { Shopper } from '../support/shopper';

/**
 * 2,000 orders paid through three instances (Express, Koa,
 * createNodeMiddleware) sharing one Redis, under the sandbox's seeded random
 * faults, every kind including `late` (a request processed after its client
 * gave up): shoppers paying twice at once, switching between checkout and
 * wallet, polling GET /status and paying again, while the instances run
 * reconcile() throughout; half the orders without a notifyUrl. At the end the
 * ledger is audited: no order charged twice, and every charge known to the
 * merchant's handlers. Replay a failing run with PAYMOUNT_RELIABILITY_SEED.
 */
const RUN = {
  orders: 2_000,
  concurrency: 64,
  faultRate: 0.25,
  /** How long a `delay` holds an answer and a `late` request waits to be processed: past every attempt's time-out. */
  faultDelayMs: 2_500,
  client: { timeoutMs: 400, deadlineMs: 2_000, retry: { maxAttempts: 2, baseDelayMs: 2, maxDelayMs: 10 } },
  /** Every tenth order's amount is one the sandbox declines. */
  declinedAmount: 8888,
  /** The order pages' polls: the service clock moves by the status refresh interval (5 s) this often, so polls ask the service. */
  clockTick: { everyMs: 1_500, byMs: 5_000 },
  reconcileEveryMs: 700,
  /** A shopper reading the order page before polling and paying again: long enough for a clock tick and a reconcile run, shorter than a late request's wait. */
  readingMs: 1_200,
  finalReconcileRuns: 5,
} as const;

/**
 * How a shopper pays an order. `wallet-twice`: two wallet payments at once on
 * two instances. `wallet-then-checkout` and `checkout-then-wallet`: the other
 * method after the first answer (the page of a checkout paid last).
 * `both-at-once`: a checkout and a wallet payment at once. `wallet-status-wallet`
 * and `checkout-status-checkout`: pay, read the page a moment, poll GET /status,
 * pay again.
 */
const PATTERNS = ['wallet-twice', 'wallet-then-checkout', 'checkout-then-wallet', 'both-at-once', 'wallet-status-wallet', 'checkout-status-checkout'] as const;
type Pattern = (typeof PATTERNS)[number];

interface RunTally {
  seed: number;
  orders: number;
  routeCalls: number;
  wallMs: number;
  charges: { succeeded: number; declined: number };
  faultsByKind: Record<string, number>;
  reconcileRuns: number;
  doubleCharges: number;
  lostCharges: number;
  reportedTwice: number;
}

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

  it(`${RUN.orders.toLocaleString('en')} orders paid twice, both ways, polled and reconciled: none charged twice, no charge unknown to the merchant`, async () => {
    const startedAt = Date.now();
    const notifies = (order: MerchantOrder) => Number(order.referenceOrderId.slice('ref-f'.length)) % 2 === 0;
    run = await startRedisShop({
      redisUrl: redis.url,
      adapters: ['express', 'koa', 'node'],
      client: RUN.client,
      notifies,
      sandbox: { webhookRetryDelaysMs: [20, 50, 100, 200, 400], faults: { seed: SEED, rate: RUN.faultRate, kinds: FAULT_KINDS, delayMs: RUN.faultDelayMs } },
    });
    await run.connected();
    const { sandbox, shop, instances } = run;
    const shopper = new Shopper(agent, sandbox);
    const urlOf = (n: number) => instances[n % instances.length]?.routesUrl ?? '';
    const orders = Array.from({ length: RUN.orders }, (_, i) => shop.addOrder(`f${i}`, i % 10 === 9 ? RUN.declinedAmount : 1_000 + i));
    let routeCalls = 0;
    let reconcileRuns = 0;
    const counted = <T>(call: Promise<T>) => {
      routeCalls += 1;
      return call;
    };
    const reconcileOn = async (n: number, limit: number) => {
      reconcileRuns += 1;
      await instances[n % instances.length]?.paymentRoutes.reconcile({ olderThanMs: 0, limit });
    };

    const reading = () => new Promise((resolve) => setTimeout(resolve, RUN.readingMs));
    const pay = async (pattern: Pattern, orderId: string, i: number) => {
      const wallet = (n: number) => counted(shopper.wallet(urlOf(i + n), orderId));
      const checkout = (n: number, payPage = true) => counted(shopper.checkout(urlOf(i + n), orderId, payPage));
      const status = (n: number) => counted(shopper.status(urlOf(i + n), orderId));
      if (pattern === 'wallet-twice') await Promise.all([wallet(0), wallet(1)]);
      if (pattern === 'wallet-then-checkout') await wallet(0).then(() => checkout(1));
      if (pattern === 'checkout-then-wallet') {
        const opened = await checkout(0, false);
        await wallet(1);
        if (opened.body.checkoutUrl !== undefined) await shopper.payPage(opened.body.checkoutUrl);
      }
      if (pattern === 'both-at-once') await Promise.all([checkout(0), wallet(1)]);
      if (pattern === 'wallet-status-wallet') await wallet(0).then(reading).then(() => status(1)).then(() => wallet(2));
      if (pattern === 'checkout-status-checkout') await checkout(0).then(reading).then(() => status(1)).then(() => checkout(2));
    };

    // While the shoppers pay: time passes for the order pages' polls, and the instances reconcile in turn.
    const clockTicker = setInterval(() => sandbox.clock.advance(RUN.clockTick.byMs), RUN.clockTick.everyMs);
    let reconciling = Promise.resolve();
    const reconcileTicker = setInterval(() => {
      reconciling = reconciling.then(() => reconcileOn(reconcileRuns, 200)).catch(() => {});
    }, RUN.reconcileEveryMs);
    try {
      await inPool(orders, RUN.concurrency, (order, i) => pay(PATTERNS[i % PATTERNS.length] as Pattern, order.id, i));
    } finally {
      clearInterval(clockTicker);
      clearInterval(reconcileTicker);
    }
    await reconciling;
    // Every late request has been processed and its webhook delivered; then reconcile() tells what no webhook did.
    await new Promise((resolve) => setTimeout(resolve, RUN.faultDelayMs + 500));
    await sandbox.waitForDeliveries(30_000);
    const audit = (): ChargeAudit => auditCharges(sandbox.charges(), shop.handlerRuns);
    for (let n = 0; n < RUN.finalReconcileRuns && audit().unreported.length > 0; n += 1) await reconcileOn(n, 10_000);

    const final = audit();
    const charges = sandbox.charges();
    const report: RunTally = {
      seed: SEED,
      orders: RUN.orders,
      routeCalls,
      wallMs: Date.now() - startedAt,
      charges: { succeeded: final.charges, declined: charges.length - final.charges },
      faultsByKind: sandbox.faultsApplied(),
      reconcileRuns,
      doubleCharges: final.chargedTwice.length,
      lostCharges: final.unreported.length,
      reportedTwice: final.reportedTwice.length,
    };
    console.info(`shared-Redis fault run: ${JSON.stringify(report)}`);
    console.info(`patterns of the orders charged twice: ${JSON.stringify(tally(final.chargedTwice.map((ref) => PATTERNS[Number(ref.slice('ref-f'.length)) % PATTERNS.length] ?? '?')))}`);

    // The schedule hit with every kind, late processing included.
    for (const kind of FAULT_KINDS) expect(report.faultsByKind[kind] ?? 0, kind).toBeGreaterThan(0);
    expect.soft(final.chargedTwice, 'orders charged twice').toEqual([]);
    expect.soft(final.unreported, 'charges no handler heard of').toEqual([]);
    expect.soft(final.reportedTwice, 'charges reported twice').toEqual([]);
  }, 240_000);
});
