import { signWebhook, type SignedWebhook } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADAPTERS, startMerchantApp, type AdapterName } from '../support/apps';
import { tally } from '../support/attempts';
import { captureLogger } from '../support/capture';
import { createAgent, inPool, postJson, send, type Answer } from '../support/http';
import { Shop, shopOptions } from '../support/shop';

/**
 * How long the sandbox waits for a webhook answer, and how long a "slow" handler takes on its first run: well past
 * it, so that the first retries (100 ms after the time-out, then 200, 400) find it still running and are told 409
 * with 2 s to spare on a busy machine, and a later one (the schedule runs 12.7 s past the time-out) finds it done.
 */
const WEBHOOK_TIMEOUT_MS = 2_000;
const SLOW_HANDLER_MS = 4_500;
const PAYMENTS_PER_ADAPTER = 60;

const agent = createAgent(64);
afterAll(() => agent.close());

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Mode = 'throws' | 'times-out' | 'times-out-then-throws' | 'works';

/** A sandbox, a shop and an app whose handler misbehaves on the first run of some events, as chosen by `modeOf`. */
async function flakyShop(adapter: AdapterName, modeOf: (referenceOrderId: string) => Mode) {
  const sandbox = await startSandbox({
    allowLocalNotifyUrl: true,
    rateLimit: false,
    webhookTimeoutMs: WEBHOOK_TIMEOUT_MS,
    webhookRetryDelaysMs: [100, 200, 400, 800, 1_600, 3_200, 6_400],
  });
  const shop = new Shop();
  const log = captureLogger();
  const firstRunDone = new Set<string>();
  let routesUrl = '';
  const app = await startMerchantApp(
    adapter,
    shopOptions({
      sandbox,
      shop,
      logger: log.logger,
      routesUrl: () => routesUrl,
      handler: async (event, apply) => {
        const identity = `${event.type}:${event.transactionId}`;
        const first = !firstRunDone.has(identity);
        firstRunDone.add(identity);
        const mode = first ? modeOf(event.referenceOrderId ?? '') : 'works';
        if (mode === 'times-out' || mode === 'times-out-then-throws') await sleep(SLOW_HANDLER_MS);
        if (mode === 'throws' || mode === 'times-out-then-throws') throw new Error('the order database is unavailable');
        apply();
      },
    }),
  ).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  routesUrl = app.routesUrl;
  return { sandbox, shop, log, app, close: async () => (await app.close(), await sandbox.close()) };
}

describe('webhook handlers that fail or time out: the service retries, each effect happens once', () => {
  for (const adapter of ADAPTERS) {
    it(`${adapter}: ${PAYMENTS_PER_ADAPTER} payments, a third of handlers throw and a third outlast the service's time-out on first delivery`, async () => {
      const modes: Mode[] = ['throws', 'times-out', 'works'];
      const modeOf = (ref: string) => modes[Number(ref.replace(/\D/g, '')) % 3] ?? 'works';
      const run = await flakyShop(adapter, modeOf);
      try {
        const orders = Array.from({ length: PAYMENTS_PER_ADAPTER }, (_, i) => run.shop.addOrder(`p${i}`, i % 4 === 3 ? 8888 : 1500 + i));
        await inPool(orders, 16, async (order) => {
          const answer = await postJson(agent, `${run.app.routesUrl}/wallet/pay`, { orderId: order.id, token: run.sandbox.mintWalletToken() });
          expect(answer.status).toBe(200);
        });
        await run.sandbox.waitForDeliveries(60_000);

        const deliveries = run.sandbox.deliveries();
        expect(deliveries).toHaveLength(PAYMENTS_PER_ADAPTER);
        expect(deliveries.filter((d) => d.state !== 'delivered')).toEqual([]);
        // Exactly once: one effect per charge, for declined (payment.failed) and paid (payment.succeeded) alike.
        const charges = run.sandbox.charges();
        expect(charges).toHaveLength(PAYMENTS_PER_ADAPTER);
        for (const charge of charges) {
          const type = charge.transactionStatus === 'S' ? 'payment.succeeded' : 'payment.failed';
          expect(run.shop.effects.get(`${type}:${charge.transactionId}`), charge.referenceOrderId).toBe(1);
        }
        expect(run.shop.duplicateEffects()).toEqual([]);
        expect(run.shop.effects.size).toBe(PAYMENTS_PER_ADAPTER);

        // The failures really happened and were retried: every throwing handler ran again, every slow
        // one left its first attempt unanswered, and retries that came while it still ran were told 409.
        const runsOf = (ref: string) => run.shop.handlerRuns.filter((event) => event.referenceOrderId === ref).length;
        for (const delivery of deliveries) {
          const ref = String(delivery.payload.referenceOrderId);
          if (modeOf(ref) === 'throws') expect(runsOf(ref), ref).toBeGreaterThanOrEqual(2);
          if (modeOf(ref) === 'times-out') expect(delivery.attempts[0]?.status, ref).toBeUndefined();
        }
        const allAttempts = tally(deliveries.flatMap((d) => d.attempts.map((a) => String(a.status ?? 'no answer'))));
        expect(allAttempts['500']).toBeGreaterThanOrEqual(1);
        expect(allAttempts['409']).toBeGreaterThanOrEqual(1);
        console.info(`${adapter} webhook attempts by answer: ${JSON.stringify(allAttempts)}`);
        for (const order of run.shop.orders.values()) expect(['paid', 'failed']).toContain(order.state);
      } finally {
        await run.close();
      }
    });
  }
});

describe('duplicates, in-flight duplicates and out-of-order results', () => {
  let sandbox: Sandbox;
  let run: Awaited<ReturnType<typeof flakyShop>>;
  const deliver = (signed: SignedWebhook): Promise<Answer> =>
    send(agent, `${run.app.routesUrl}/webhook`, { method: 'POST', headers: signed.headers, body: signed.body });
  const sign = (payload: Record<string, unknown>, deliveryId?: string) =>
    signWebhook({ payload, secret: sandbox.webhookSecret, ...(deliveryId ? { deliveryId } : {}) });

  beforeAll(async () => {
    run = await flakyShop('express', (ref) => (ref.endsWith('slow') ? 'times-out' : ref.endsWith('slowfail') ? 'times-out-then-throws' : 'works'));
    sandbox = run.sandbox;
  });
  afterAll(() => run.close());

  it('a delivery repeated as is, or re-signed under a new delivery id, runs the handler once', async () => {
    const order = run.shop.addOrder('dup', 1000);
    const first = sign(sale('T-dup', order.referenceOrderId, 'S'), 'dlv-dup');
    expect((await deliver(first)).json).toEqual({ received: true });
    const repeats = await Promise.all([
      deliver(first),
      deliver(sign(sale('T-dup', order.referenceOrderId, 'S'), 'dlv-dup')),
      deliver(sign(sale('T-dup', order.referenceOrderId, 'S'), 'dlv-dup-resigned')),
    ]);
    for (const answer of repeats) expect(answer.json).toEqual({ received: true, duplicate: true });
    expect(run.shop.effects.get('payment.succeeded:T-dup')).toBe(1);
  });

  /**
   * Delivers `copies` until each is answered 200, retrying those told 409 as
   * the service would (bounded rounds); returns every answer by round.
   */
  async function deliverUntilAccepted(copies: SignedWebhook[], rounds = 5): Promise<Answer[][]> {
    const byRound: Answer[][] = [];
    let pending = copies;
    for (let round = 0; round < rounds && pending.length > 0; round += 1) {
      const answers = await Promise.all(pending.map(deliver));
      byRound.push(answers);
      pending = pending.filter((_, i) => answers[i]?.status !== 200);
    }
    expect(pending).toEqual([]);
    return byRound;
  }

  it('concurrent deliveries of an event still being handled are told 409 with Retry-After; their retries are duplicates', async () => {
    const order = run.shop.addOrder('inflight-slow', 1000);
    const payload = sale('T-inflight', order.referenceOrderId, 'S');
    const first = deliver(sign(payload, 'dlv-inflight-first'));
    await vi.waitFor(() => expect(run.shop.handlerRuns.some((e) => e.transactionId === 'T-inflight')).toBe(true), { timeout: 5_000 });
    const copies = Array.from({ length: 12 }, (_, i) => sign(payload, `dlv-inflight-${i}`));
    const refused = await Promise.all(copies.map(deliver));
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.headers['retry-after']).toBe('2');
      expect((answer.json as { error: { code: string } }).error.code).toBe('WEBHOOK_IN_PROGRESS');
    }
    expect((await first).json).toEqual({ received: true });
    const retried = await Promise.all(copies.map(deliver));
    for (const answer of retried) expect(answer.json).toEqual({ received: true, duplicate: true });
    expect(run.shop.effects.get('payment.succeeded:T-inflight')).toBe(1);
    expect(order.state).toBe('paid');
  });

  it('when the handler that held the event fails, one retried in-flight duplicate handles it, exactly once', async () => {
    const order = run.shop.addOrder('inflight-slowfail', 1000);
    const payload = sale('T-inflight-fail', order.referenceOrderId, 'S');
    const first = deliver(sign(payload, 'dlv-fail-first'));
    await vi.waitFor(() => expect(run.shop.handlerRuns.some((e) => e.transactionId === 'T-inflight-fail')).toBe(true), { timeout: 5_000 });
    const copies = Array.from({ length: 8 }, (_, i) => sign(payload, `dlv-fail-${i}`));
    const refused = await Promise.all(copies.map(deliver));
    expect(refused.map((a) => a.status)).toEqual(copies.map(() => 409));
    expect((await first).status).toBe(500);
    expect(run.shop.effects.get('payment.succeeded:T-inflight-fail')).toBeUndefined();
    // Before the fix these copies had been answered 200 "duplicate" and the event was lost here.
    const rounds = await deliverUntilAccepted(copies);
    const accepted = rounds.flat().filter((a) => a.status === 200 && !(a.json as { duplicate?: boolean }).duplicate);
    expect(accepted).toHaveLength(1);
    expect(run.shop.effects.get('payment.succeeded:T-inflight-fail')).toBe(1);
    expect(order.state).toBe('paid');
  });

  it('out of order: a failed attempt reported after the successful one leaves the order paid; each event runs once', async () => {
    const order = run.shop.addOrder('ooo', 1000);
    // Attempt B succeeded and is reported first; attempt A's decline arrives later.
    await deliver(sign(sale('T-ooo-B', order.referenceOrderId, 'S')));
    await deliver(sign(sale('T-ooo-A', order.referenceOrderId, 'F')));
    await deliver(sign(sale('T-ooo-A', order.referenceOrderId, 'F')));
    // Even a contradicting status for the paid transaction itself does not downgrade it.
    await deliver(sign(sale('T-ooo-B', order.referenceOrderId, 'F')));
    expect(order.state).toBe('paid');
    expect(run.shop.effects.get('payment.succeeded:T-ooo-B')).toBe(1);
    expect(run.shop.effects.get('payment.failed:T-ooo-A')).toBe(1);
    expect(run.shop.effects.get('payment.failed:T-ooo-B')).toBe(1);

    const other = run.shop.addOrder('ooo2', 1000);
    await deliver(sign(sale('T-ooo2-A', other.referenceOrderId, 'F')));
    expect(other.state).toBe('failed');
    await deliver(sign(sale('T-ooo2-B', other.referenceOrderId, 'S')));
    expect(other.state).toBe('paid');
    await deliver(sign(sale('T-ooo2-C', other.referenceOrderId, 'C')));
    expect(other.state).toBe('paid');
  });
});

describe('untrusted deliveries: each refused with its own error, no handler run', () => {
  for (const adapter of ADAPTERS) {
    it(`${adapter}: forged, wrong secret, stale, future, stale signed time, truncated, re-signed garbage`, async () => {
      const run = await flakyShop(adapter, () => 'works');
      try {
        const order = run.shop.addOrder('untrusted', 1000);
        const payload = sale('T-untrusted', order.referenceOrderId);
        const url = `${run.app.routesUrl}/webhook`;
        const post = (signed: { body: string; headers: Record<string, string> }) =>
          send(agent, url, { method: 'POST', headers: signed.headers, body: signed.body });
        const good = signWebhook({ payload, secret: run.sandbox.webhookSecret });
        const now = Date.now();
        const signedAt = (notifyTime: number | string) => signWebhook({ payload: { ...payload, notifyTime }, secret: run.sandbox.webhookSecret });
        // Nest's own body parser (on, as its README says) answers a body that is not JSON before paymount sees it.
        const notJson = adapter === 'nest' ? 'NEST_BODY_PARSER' : undefined;
        const cases: Array<[string, { body: string; headers: Record<string, string> }, number, string]> = [
          ['forged signature', { ...good, headers: { ...good.headers, 'x-signature': 'ab'.repeat(32) } }, 400, 'WEBHOOK_BAD_SIGNATURE'],
          ['wrong secret', signWebhook({ payload, secret: 'whsec_someone_else_entirely' }), 400, 'WEBHOOK_BAD_SIGNATURE'],
          ['stale timestamp', signWebhook({ payload, secret: run.sandbox.webhookSecret, timestamp: now - 6 * 60_000 }), 400, 'WEBHOOK_STALE_TIMESTAMP'],
          ['future timestamp', signWebhook({ payload, secret: run.sandbox.webhookSecret, timestamp: now + 6 * 60_000 }), 400, 'WEBHOOK_FUTURE_TIMESTAMP'],
          ['seconds timestamp', { ...good, headers: { ...good.headers, 'x-timestamp': String(Math.floor(now / 1000)) } }, 400, 'WEBHOOK_BAD_TIMESTAMP'],
          // The body's own signed time, under a fresh X-Timestamp: a replay of a delivery signed 6 minutes ago.
          ['stale signed notifyTime', signedAt(now - 6 * 60_000), 400, 'WEBHOOK_STALE_EVENT'],
          ['future signed notifyTime', signedAt(now + 6 * 60_000), 400, 'WEBHOOK_FUTURE_EVENT'],
          ['unreadable signed notifyTime', signedAt('yesterday'), 400, 'WEBHOOK_BAD_SIGNED_TIME'],
          ['truncated body', { ...good, body: good.body.slice(0, good.body.length - 7) }, 400, notJson ?? 'WEBHOOK_BAD_SIGNATURE'],
          ['truncated body, re-signed', signWebhook({ rawBody: good.body.slice(0, 20), secret: run.sandbox.webhookSecret }), 400, notJson ?? 'WEBHOOK_INVALID_PAYLOAD'],
          ['no signature', { ...good, headers: { ...good.headers, 'x-signature': '' } }, 400, 'WEBHOOK_MISSING_HEADER'],
        ];
        for (const [name, delivery, status, code] of cases) {
          const answer = await post(delivery);
          expect(answer.status, name).toBe(status);
          if (code === 'NEST_BODY_PARSER') expect(answer.json, name).toMatchObject({ statusCode: 400 });
          else expect((answer.json as { error: { code: string } }).error.code, name).toBe(code);
        }
        expect(run.shop.handlerRuns).toEqual([]);
        // The genuine delivery still goes through afterwards: nothing above consumed its keys.
        expect((await post(good)).json).toEqual({ received: true });
        expect(run.shop.handlerRuns).toHaveLength(1);
      } finally {
        await run.close();
      }
    });
  }

  for (const adapter of ADAPTERS) {
    it(`${adapter}: a body parsed by another middleware first is refused with the fix, never re-serialised and verified`, async () => {
      const sandbox = await startSandbox({ allowLocalNotifyUrl: true });
      const shop = new Shop();
      const app = await startMerchantApp(adapter, shopOptions({ sandbox, shop, routesUrl: () => '' }), { bodyParsedFirst: true }).catch(
        async (error: unknown) => {
          await sandbox.close();
          throw error;
        },
      );
      try {
        const signed = signWebhook({ payload: sale('T-parsed', 'ref-parsed', 'S'), secret: sandbox.webhookSecret });
        const answer = await send(agent, `${app.routesUrl}/webhook`, { method: 'POST', headers: signed.headers, body: signed.body });
        expect(answer.status).toBe(500);
        const { error } = answer.json as { error: { code: string; message: string } };
        if (adapter === 'nest') {
          expect(error.code).toBe('RAW_BODY_MISSING');
          expect(error.message).toContain('rawBody: true');
        } else {
          expect(error.code).toBe('WEBHOOK_BODY_ALREADY_PARSED');
          expect(error.message).toContain('mount the webhook route before any JSON body parser');
        }
        expect(shop.handlerRuns).toEqual([]);
      } finally {
        await app.close();
        await sandbox.close();
      }
    });
  }
});

/** A SALE result as the service reports it. */
function sale(transactionId: string, referenceOrderId: string, transactionStatus: 'S' | 'F' | 'C' = 'S') {
  return {
    transactionId,
    transactionRequestId: `req-${transactionId}`,
    referenceOrderId,
    transactionType: 'SALE',
    transactionStatus,
    amount: { orderAmount: 1000, taxAmount: 0, surchargeAmount: 0, priceCurrency: 'USD' },
    ...(transactionStatus === 'S' ? {} : { reason: { code: 'CARD_DECLINED', message: 'card declined' } }),
    ...(transactionStatus === 'C' ? { sessionId: `cs_${transactionId}` } : {}),
  };
}
