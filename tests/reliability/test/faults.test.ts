import { FAULT_KINDS, startSandbox, type Charge, type Sandbox } from '@paymount/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { startMerchantApp, type AdapterName, type MerchantApp } from '../support/apps';
import { absorbed, endedClean, logicalCalls, policyViolations, RETRYABLE, tally, type LogicalCall } from '../support/attempts';
import { captureLogger } from '../support/capture';
import { createAgent, inPool, payHostedCheckout, postJson } from '../support/http';
import { SecretScan } from '../support/secrets';
import { Shop, shopOptions } from '../support/shop';
import { SEED } from '../support/seed';

/**
 * Payments through the mounted routes while the service misbehaves at random
 * (the sandbox's seeded fault mode: every kind, a quarter of all service
 * requests). Replay a failing run with PAYMOUNT_RELIABILITY_SEED=<seed>.
 */
const FAULT_RATE = 0.25;
const MAX_ATTEMPTS = 3;
/** Per attempt; the injected delay holds an answer well past it. */
const TIMEOUT_MS = 400;
const DELAY_MS = 900;
const CONCURRENCY = 24;
const DECLINED_AMOUNT = 8888;
const CHECKOUT = '/v1/checkout/create-session';
const SALE = '/v1/checkout/sale';

interface RunReport {
  adapter: AdapterName;
  routeCalls: number;
  faultsSeen: Record<string, number>;
  routeAnswers: Record<string, number>;
  absorbedCalls: number;
  /** Wallet payments answered `pending` (outcome unknown) that the service had charged: settled paid by the webhook. */
  pendingSettledByWebhook: number;
  orders: Record<string, number>;
  charges: { succeeded: number; declined: number };
}

const reports: RunReport[] = [];
const agent = createAgent(CONCURRENCY * 2);

afterAll(async () => {
  // The tally, for the log of a CI run.
  console.info(`fault run (seed ${SEED}, rate ${FAULT_RATE}):\n${JSON.stringify(reports, null, 2)}`);
  await agent.close();
});

type WalletAnswer = { status: number; body: { status?: 'succeeded' | 'failed' | 'pending'; transactionRequestId?: string } };

/** What one run leaves to check: the shop's view, the route answers, the ledger and the client's attempts. */
interface Run {
  orderPairs: number;
  shop: Shop;
  walletAnswers: Map<string, WalletAnswer>;
  checkoutStatuses: number[];
  hostedPays: number[];
  charges: Charge[];
  calls: Map<string, LogicalCall>;
}

const succeededCharges = (run: Run) => run.charges.filter((charge) => charge.transactionStatus === 'S');
const wasCharged = (run: Run, orderId: string) =>
  succeededCharges(run).some((charge) => charge.referenceOrderId === run.shop.orders.get(orderId)?.referenceOrderId);

/**
 * Pays `orderPairs` orders by wallet and `orderPairs` by hosted checkout (the
 * shopper paying each page the route returned), `CONCURRENCY` at a time, each
 * request also carrying a browser amount the routes must ignore.
 */
async function drive(routesUrl: string, sandbox: Sandbox, shop: Shop, orderPairs: number, scan: SecretScan) {
  const amountFor = (i: number, base: number) => (i % 10 === 9 ? DECLINED_AMOUNT : base + i);
  const jobs = [
    ...Array.from({ length: orderPairs }, (_, i) => ({ kind: 'wallet' as const, order: shop.addOrder(`w${i}`, amountFor(i, 1000)) })),
    ...Array.from({ length: orderPairs }, (_, i) => ({ kind: 'checkout' as const, order: shop.addOrder(`c${i}`, amountFor(i, 2000)) })),
  ];
  const browserAmount = { orderAmount: 1, priceCurrency: 'USD' };
  const walletAnswers = new Map<string, WalletAnswer>();
  const checkoutStatuses: number[] = [];
  const hostedPays: number[] = [];
  await inPool(jobs, CONCURRENCY, async ({ kind, order }) => {
    if (kind === 'wallet') {
      const token = sandbox.mintWalletToken();
      scan.secret(token);
      const answer = await postJson(agent, `${routesUrl}/wallet/pay`, { orderId: order.id, token, amount: browserAmount });
      scan.text('response', answer.text);
      const body = (answer.json ?? {}) as WalletAnswer['body'];
      walletAnswers.set(order.id, { status: answer.status, body });
      if (answer.status === 200 && body.status) shop.recordPaymentAnswer(order.id, body.status);
      return;
    }
    const answer = await postJson(agent, `${routesUrl}/checkout`, { orderId: order.id, amount: browserAmount });
    checkoutStatuses.push(answer.status);
    if (answer.status === 201) hostedPays.push((await payHostedCheckout(agent, (answer.json as { checkoutUrl: string }).checkoutUrl)).status);
  });
  return { walletAnswers, checkoutStatuses, hostedPays };
}

/** At most one charge per order, of the server-side amount; every charged order paid; none answered failed. */
function expectLedgerAgreesWithShop(run: Run): void {
  const succeeded = succeededCharges(run);
  expect(Object.entries(tally(succeeded.map((c) => c.referenceOrderId ?? '?'))).filter(([, n]) => n > 1)).toEqual([]);
  expect(new Set(run.charges.map((c) => c.transactionRequestId)).size).toBe(run.charges.length);
  for (const charge of succeeded) {
    const order = run.shop.byReferenceId(charge.referenceOrderId ?? '');
    expect(order?.state, `order ${charge.referenceOrderId} was charged`).toBe('paid');
    expect(charge.payableTotal).toBe(order?.amount.orderAmount);
  }
  for (const [orderId, answer] of run.walletAnswers) {
    if (answer.body.status === 'failed') expect(wasCharged(run, orderId), orderId).toBe(false);
    if (answer.body.status === 'succeeded') expect(run.shop.orders.get(orderId)?.state).toBe('paid');
  }
  expect(run.shop.duplicateEffects()).toEqual([]);
  expect(run.hostedPays.every((status) => status === 200 || status === 303)).toBe(true);
}

/**
 * The retry policy call by call (see policyViolations), and the routes' answers
 * following it: a call that ended on a clean answer, absorbed faults included,
 * is answered as if nothing had happened; only an exhausted call is not.
 */
function expectRetryPolicyHeld(run: Run): void {
  const calls = [...run.calls.values()];
  expect(calls.flatMap((call) => policyViolations(call, MAX_ATTEMPTS).map((p) => `${call.transactionRequestId}: ${p}`))).toEqual([]);
  // Wallet payments: the route's answer carries the transactionRequestId, so each is matched to its call.
  let rateLimited = 0;
  for (const [orderId, answer] of run.walletAnswers) {
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
    if (answer.status !== 200) {
      // Only a payment refused by the rate limit on every attempt answers otherwise: it reached no one.
      expect(answer.status, JSON.stringify(answer.body)).toBe(429);
      expect(wasCharged(run, orderId), orderId).toBe(false);
      rateLimited++;
      continue;
    }
    const call = answer.body.transactionRequestId ? run.calls.get(answer.body.transactionRequestId) : undefined;
    expect(call, JSON.stringify(answer)).toBeDefined();
    if (call) expect(answer.body.status === 'pending').toBe(!endedClean(call));
  }
  const saleCalls = calls.filter((call) => call.path === SALE);
  expect(saleCalls).toHaveLength(run.orderPairs);
  expect(saleCalls.filter((call) => call.attempts.length === MAX_ATTEMPTS && call.attempts.every((a) => a.symptom === 's04'))).toHaveLength(rateLimited);
  // Checkouts answer no id on failure, so they are matched in number.
  const checkoutCalls = calls.filter((call) => call.path === CHECKOUT);
  expect(checkoutCalls).toHaveLength(run.orderPairs);
  expect(run.checkoutStatuses.filter((s) => s === 201)).toHaveLength(checkoutCalls.filter(endedClean).length);
  for (const status of run.checkoutStatuses.filter((s) => s !== 201)) expect([429, 502, 504]).toContain(status);
  // The schedule did hit: every kind appeared, and some faults were absorbed.
  const seen = tally(calls.flatMap((call) => call.attempts.map((a) => a.symptom)));
  for (const symptom of RETRYABLE) expect(seen[symptom] ?? 0, symptom).toBeGreaterThan(0);
  expect(calls.filter(absorbed).length).toBeGreaterThan(0);
}

function reportOf(adapter: AdapterName, run: Run): RunReport {
  const calls = [...run.calls.values()];
  const succeeded = succeededCharges(run);
  return {
    adapter,
    routeCalls: run.orderPairs * 2,
    faultsSeen: tally(calls.flatMap((call) => call.attempts.map((a) => a.symptom))),
    routeAnswers: {
      ...tally(run.checkoutStatuses.map((s) => `checkout ${s}`)),
      ...tally([...run.walletAnswers.values()].map((a) => `wallet ${a.status} ${a.body.status ?? ''}`.trim())),
    },
    absorbedCalls: calls.filter(absorbed).length,
    pendingSettledByWebhook: [...run.walletAnswers].filter(([orderId, a]) => a.body.status === 'pending' && wasCharged(run, orderId)).length,
    orders: tally([...run.shop.orders.values()].map((o) => o.state)),
    charges: { succeeded: succeeded.length, declined: run.charges.length - succeeded.length },
  };
}

async function faultRun(adapter: AdapterName, orderPairs: number): Promise<RunReport> {
  const sandbox = await startSandbox({
    allowLocalNotifyUrl: true,
    rateLimit: false,
    webhookRetryDelaysMs: [20, 50, 100, 200, 400],
    faults: { seed: SEED, rate: FAULT_RATE, kinds: FAULT_KINDS, delayMs: DELAY_MS },
  });
  const shop = new Shop();
  const log = captureLogger();
  const scan = new SecretScan();
  scan.secret(sandbox.apiKey, sandbox.webhookSecret);
  let routesUrl = '';
  let app: MerchantApp | undefined;
  try {
    app = await startMerchantApp(
      adapter,
      shopOptions({
        sandbox,
        shop,
        logger: log.logger,
        routesUrl: () => routesUrl,
        client: { timeoutMs: TIMEOUT_MS, deadlineMs: 20_000, retry: { maxAttempts: MAX_ATTEMPTS, baseDelayMs: 2, maxDelayMs: 10 } },
      }),
    );
    routesUrl = app.routesUrl;
    const answers = await drive(routesUrl, sandbox, shop, orderPairs, scan);
    await sandbox.waitForDeliveries(30_000);
    const run: Run = { orderPairs, shop, ...answers, charges: sandbox.charges(), calls: logicalCalls(log.entries) };

    expectLedgerAgreesWithShop(run);
    expectRetryPolicyHeld(run);
    // Thousands of debug lines written under faults: none holds the key, the webhook secret or a token.
    scan.text('log line', ...log.entries.map((entry) => entry.line));
    scan.expectNoLeaks();
    const report = reportOf(adapter, run);
    reports.push(report);
    return report;
  } finally {
    await app?.close();
    await sandbox.close();
  }
}

describe('payments through the mounted routes under random service faults', () => {
  it('Express: 2,000 checkout and wallet calls, nothing charged twice, nothing charged left unpaid', async () => {
    const report = await faultRun('express', 1_000);
    expect(report.routeCalls).toBe(2_000);
  });

  it('Koa: the same guarantees on a smaller run', async () => {
    await faultRun('koa', 250);
  });

  it('NestJS: the same guarantees on a smaller run', async () => {
    await faultRun('nest', 250);
  });
});
