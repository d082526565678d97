import type { MerchantOrder } from '@paymount/core';
import { FAULT_KINDS, type Sandbox, type SandboxOptions } from '@paymount/sandbox';
import type { Agent } from 'undici';
import type { MerchantApp } from './apps';
import { tally } from './attempts';
import type { ChargeAudit } from './charge-audit';
import { inPool } from './http';
import { SEED } from './seed';
import type { Shop } from './shop';
import { Shopper } from './shopper';

/**
 * The shared-store fault run: 2,000 orders paid through several instances
 * sharing one store, under the sandbox's seeded random faults, every kind
 * including `late` (a request processed after its client gave up): shoppers
 * paying twice at once, switching between checkout and wallet, polling GET
 * /status and paying again, while the instances run reconcile() throughout;
 * half the orders without a notifyUrl. Replay a failing run with
 * PAYMOUNT_RELIABILITY_SEED.
 */
export const RUN = {
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
  /** A reconcile run starts on the first tick after the last one ended. */
  reconcileEveryMs: 700,
  /** A shopper reading the order page before polling and paying again: long enough for a clock tick and a reconcile run, shorter than a late request's wait. */
  readingMs: 1_200,
  /** Rounds of reconcile() on every instance at once after the shoppers, while a charge is still unknown to the merchant. */
  finalReconcileRounds: 5,
} as const;

/** The sandbox of a run: fast webhook retries, and the seeded fault schedule. */
export const FAULT_RUN_SANDBOX: SandboxOptions = {
  webhookRetryDelaysMs: [20, 50, 100, 200, 400],
  faults: { seed: SEED, rate: RUN.faultRate, kinds: FAULT_KINDS, delayMs: RUN.faultDelayMs },
};

/** The run's `i`th order (the same in every process of a run): every tenth one declined. */
export const addRunOrder = (shop: Shop, i: number) => shop.addOrder(`f${i}`, i % 10 === 9 ? RUN.declinedAmount : 1_000 + i);

/** How many orders a run pays: PAYMOUNT_FAULT_RUN_ORDERS, else `orderCount`. */
export const runOrderCount = (orderCount: number = RUN.orders) => Number(process.env.PAYMOUNT_FAULT_RUN_ORDERS ?? orderCount);

/**
 * A run's time limit: 1.5 s an order. The limit only catches a run that hangs,
 * so it is sized from the slowest machine the suite must pass on: 600 orders
 * took 192 s (0.32 s an order) with both cores kept busy by another process,
 * and neither 600 orders in 300 s nor 2,000 in 600 s (0.5 and 0.3 s an order)
 * were enough beside two other CI runs (a load average of 13 to 29).
 */
export const runLimitMs = (orderCount: number) => orderCount * 1_500;

/** Half the orders' payments carry a notifyUrl: the others are known only through reconcile(). */
export const notifies = (order: MerchantOrder) => Number(order.referenceOrderId.slice('ref-f'.length)) % 2 === 0;

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

export interface RunTally {
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

export interface FaultRunTarget {
  sandbox: Sandbox;
  shop: Shop;
  /** Each instance's routes, and its reconcile() (in this process, or another's through IPC). */
  instances: Array<Pick<MerchantApp, 'routesUrl'> & { paymentRoutes: Pick<MerchantApp['paymentRoutes'], 'reconcile'> }>;
}

/**
 * Pays `orders` orders (default RUN.orders; PAYMOUNT_FAULT_RUN_ORDERS overrides both) through `target`'s instances, reconciling
 * throughout and at the end until `audit` finds no charge the merchant
 * misses. Each shopper starts an order once `whenServing` resolves, and so
 * do the final reconciliation and audit (a run that takes a store away holds
 * new orders meanwhile, and audits once it is back; orders under way meet it
 * gone). Resolves the run's tally, the final audit, and the patterns of
 * the orders charged twice.
 */
export async function runFaultMix(
  target: FaultRunTarget,
  agent: Agent,
  audit: () => Promise<ChargeAudit>,
  orderCount: number = RUN.orders,
  /** Awaited before order `orderIndex` starts, and with the order count before the final reconciliation: a test's gate (a crash, then its recovery). */
  whenServing: (orderIndex: number) => Promise<void> = async () => {},
): Promise<{ report: RunTally; final: ChargeAudit; chargedTwiceByPattern: Record<string, number> }> {
  const startedAt = Date.now();
  const { sandbox, shop, instances } = target;
  const shopper = new Shopper(agent, sandbox);
  const urlOf = (n: number) => instances[n % instances.length]?.routesUrl ?? '';
  const count = runOrderCount(orderCount);
  const orders = Array.from({ length: count }, (_, i) => addRunOrder(shop, i));
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
  let reconciling: Promise<void> | undefined;
  const reconcileTicker = setInterval(() => {
    // A run still under way takes the tick, as a merchant's scheduler would: queued runs (each
    // seconds long under faults) were a backlog that outlasted the shoppers by minutes on a busy machine.
    reconciling ??= reconcileOn(reconcileRuns, 200)
      .catch(() => {})
      .finally(() => {
        reconciling = undefined;
      });
  }, RUN.reconcileEveryMs);
  try {
    await inPool(orders, RUN.concurrency, async (order, i) => {
      await whenServing(i);
      await pay(PATTERNS[i % PATTERNS.length] as Pattern, order.id, i);
    });
  } finally {
    clearInterval(clockTicker);
    clearInterval(reconcileTicker);
  }
  await reconciling;
  await whenServing(count);
  // Every late request has been processed and its webhook delivered; then reconcile() tells what no webhook did,
  // on every instance at once, as each one's own scheduler would run it.
  await new Promise((resolve) => setTimeout(resolve, RUN.faultDelayMs + 500));
  await sandbox.waitForDeliveries(30_000);
  for (let round = 0; round < RUN.finalReconcileRounds && (await audit()).unreported.length > 0; round += 1) {
    await Promise.all(instances.map((_, n) => reconcileOn(n, 10_000)));
  }

  const final = await audit();
  const charges = sandbox.charges();
  const report: RunTally = {
    seed: SEED,
    orders: count,
    routeCalls,
    wallMs: Date.now() - startedAt,
    charges: { succeeded: final.charges, declined: charges.length - final.charges },
    faultsByKind: sandbox.faultsApplied(),
    reconcileRuns,
    doubleCharges: final.chargedTwice.length,
    lostCharges: final.unreported.length,
    reportedTwice: final.reportedTwice.length,
  };
  const chargedTwiceByPattern = tally(final.chargedTwice.map((ref) => PATTERNS[Number(ref.slice('ref-f'.length)) % PATTERNS.length] ?? '?'));
  return { report, final, chargedTwiceByPattern };
}
