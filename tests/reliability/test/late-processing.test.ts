import type { PaymentRoutesOptions } from '@paymount/core';
import { startSandbox } from '@paymount/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { startMerchantApp, type AdapterName } from '../support/apps';
import { auditCharges, type ChargeAudit } from '../support/charge-audit';
import { createAgent } from '../support/http';
import { Shop, shopOptions } from '../support/shop';
import { Shopper, type ShopperAnswer } from '../support/shopper';

/**
 * A payment whose outcome the merchant does not know (its client gave up)
 * reaches the service late: seconds after the service was asked about it and
 * answered "unknown transaction" (T01). Until then nothing may let the order
 * be charged a second time, and once it is charged the merchant must hear of
 * it: from the webhook, or without a notifyUrl from reconcile(). The
 * sandbox's `late` fault holds the request, then processes it as a service
 * receiving it then would.
 */
const SALE = '/v1/checkout/sale';
const CREATE_SESSION = '/v1/checkout/create-session';
/** The client's per-attempt time-out and deadline: every attempt of the call gives up long before the request is processed. */
const CLIENT = { timeoutMs: 1_000, deadlineMs: 2_500 };
/** More than the attempts one call makes within its deadline, so every one of them is late; the rest are cleared. */
const LATE_ATTEMPTS = 5;
/** How long after the first late attempt every attempt of the call has been processed. */
const LATE_SPREAD_MS = CLIENT.deadlineMs + 1_000;
/** How long a GET /status waits before asking the service again (core's STATUS_REFRESH_INTERVAL_MS). */
const STATUS_REFRESH_MS = 5_000;
const RECONCILE_RUNS = 5;

/**
 * What happens between the payment the service will process late and its
 * processing: the shopper switches to the other method (both ways: a wallet
 * payment after a checkout whose session answer was lost, too), or the order
 * page polls GET /status, or the merchant's reconcile() runs; then the shopper
 * pays again.
 */
type Path = 'wallet-then-checkout' | 'checkout-then-wallet' | 'status-then-wallet' | 'reconcile-then-wallet';
const PATHS: readonly Path[] = ['wallet-then-checkout', 'checkout-then-wallet', 'status-then-wallet', 'reconcile-then-wallet'];
const LATE_BY_MS: readonly number[] = [4_000, 10_000];

interface Scenario {
  adapter: AdapterName;
  path: Path;
  lateMs: number;
  /** Whether payments carry a notifyUrl; without one only reconcile() tells the merchant. */
  notify: boolean;
}

interface Outcome extends ChargeAudit {
  scenario: Scenario;
  answers: string[];
  reconcileRuns: number;
}

const agent = createAgent(64);
const outcomes: Outcome[] = [];
afterAll(async () => {
  console.info(
    `late processing:\n${outcomes
      .map(
        ({ scenario: s, charges, chargedTwice, unreported, reconcileRuns, answers }) =>
          `${s.adapter} ${s.path} late ${s.lateMs} ms ${s.notify ? 'notifyUrl' : 'no notifyUrl'}: charges ${charges}, ` +
          `double ${chargedTwice.length}, unreported ${unreported.length}, reconcile runs ${reconcileRuns}; ${answers.join(' → ')}`,
      )
      .join('\n')}`,
  );
  await agent.close();
});

const describeAnswer = (route: string, answer: ShopperAnswer) =>
  [route, answer.status, answer.body.status ?? answer.body.error?.code, answer.pagePaid === undefined ? undefined : `page ${answer.pagePaid}`]
    .filter((part) => part !== undefined)
    .join(' ');

function withoutNotifyUrl(options: PaymentRoutesOptions): PaymentRoutesOptions {
  const { notifyUrl: _notifyUrl, ...rest } = options;
  return rest;
}

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

async function play(scenario: Scenario): Promise<Outcome> {
  const { adapter, path, lateMs, notify } = scenario;
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false, webhookRetryDelaysMs: [50, 100, 200] });
  const shop = new Shop();
  const order = shop.addOrder(`late-${path}`, 2_500);
  let routesUrl = '';
  const options = shopOptions({ sandbox, shop, routesUrl: () => routesUrl, client: CLIENT });
  const app = await startMerchantApp(adapter, notify ? options : withoutNotifyUrl(options));
  routesUrl = app.routesUrl;
  const shopper = new Shopper(agent, sandbox);
  const answers: string[] = [];
  const wallet = async () => void answers.push(describeAnswer('wallet', await shopper.wallet(routesUrl, order.id)));
  const checkout = async () => void answers.push(describeAnswer('checkout', await shopper.checkout(routesUrl, order.id)));
  let reconcileRuns = 0;
  const reconcile = async () => {
    reconcileRuns += 1;
    return app.paymentRoutes.reconcile({ olderThanMs: 0 });
  };
  try {
    const startedAt = Date.now();
    sandbox.injectFault({ kind: 'late', path: path === 'checkout-then-wallet' ? CREATE_SESSION : SALE, delayMs: lateMs, times: LATE_ATTEMPTS });
    await (path === 'checkout-then-wallet' ? checkout() : wallet());
    sandbox.clearFaults();

    if (path === 'wallet-then-checkout') await checkout();
    if (path === 'status-then-wallet') {
      // The page polled for longer than the refresh interval: its next poll asks the service.
      sandbox.clock.advance(STATUS_REFRESH_MS);
      answers.push(describeAnswer('status', await shopper.status(routesUrl, order.id)));
    }
    if (path === 'reconcile-then-wallet') {
      const summary = await reconcile();
      answers.push(`reconcile settled ${summary.settled} pending ${summary.stillPending}`);
    }
    if (path !== 'wallet-then-checkout') await wallet();

    // Every late attempt has been processed by now; the shopper, told to wait or not, tries once more.
    await sleepUntil(startedAt + lateMs + LATE_SPREAD_MS);
    await sandbox.waitForDeliveries(10_000);
    await (path === 'checkout-then-wallet' || path === 'wallet-then-checkout' ? checkout() : wallet());
    await sandbox.waitForDeliveries(10_000);

    if (!notify) {
      for (let run = 0; run < RECONCILE_RUNS && auditCharges(sandbox.charges(), shop.handlerRuns).unreported.length > 0; run += 1) await reconcile();
    }
    return { scenario, answers, reconcileRuns, ...auditCharges(sandbox.charges(), shop.handlerRuns) };
  } finally {
    await app.close();
    await sandbox.close();
  }
}

/** Every path, both delays, with and without notifyUrl: sixteen scenarios at once, each with its own sandbox and app. */
async function playAll(adapter: AdapterName): Promise<Outcome[]> {
  const scenarios = PATHS.flatMap((path) => LATE_BY_MS.flatMap((lateMs) => [true, false].map((notify) => ({ adapter, path, lateMs, notify }))));
  const played = await Promise.all(scenarios.map(play));
  outcomes.push(...played);
  for (const outcome of played) {
    const { path, lateMs, notify } = outcome.scenario;
    const where = `${adapter} ${path}, late ${lateMs} ms, ${notify ? 'with' : 'without'} notifyUrl: ${outcome.answers.join(' → ')}`;
    expect.soft(outcome.chargedTwice, `${where}: orders charged twice`).toEqual([]);
    expect.soft(outcome.unreported, `${where}: charges the merchant's handlers never heard of`).toEqual([]);
    expect.soft(outcome.reportedTwice, `${where}: charges reported twice`).toEqual([]);
    // The late request was a payment (or a session the shopper then paid): the order ends charged once.
    expect.soft(outcome.charges, `${where}: charges`).toBe(1);
  }
  return played;
}

describe('a payment the service processes after the client gave up on it', () => {
  it.each<AdapterName>(['express', 'koa', 'node'])(
    '%s: switching method, GET /status or reconcile() never lets the order be charged twice, and the late charge reaches the handlers once',
    async (adapter) => {
      const played = await playAll(adapter);
      expect(played).toHaveLength(PATHS.length * LATE_BY_MS.length * 2);
    },
  );
});
