import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultKind } from '@paymount/sandbox';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../tools/free-port';
import { postgresSkipped } from '../../../tools/postgres-server';
import { startCrashHarness, type Answer, type CrashHarness } from './support/crash-harness';
import { startShopProcess, stopShopProcess, type ShopProcess } from './support/shop-processes';
import { testPool } from '../../../tools/postgres-pool';

/** How long the service holds the holder's call (`delay`: charged, answer held; `late`: not processed yet): past the survivor's take-over. */
const HELD_MS = 8_000;

interface Case {
  name: string;
  route: 'wallet/pay' | 'checkout';
  path: string;
  fault: Extract<FaultKind, 'delay' | 'late'>;
}

const CASES: Case[] = [
  { name: 'a wallet payment charged, its answer held', route: 'wallet/pay', path: '/v1/checkout/sale', fault: 'delay' },
  { name: 'a wallet payment the service has not processed yet', route: 'wallet/pay', path: '/v1/checkout/sale', fault: 'late' },
  { name: 'a checkout whose session was opened, its answer held', route: 'checkout', path: '/v1/checkout/create-session', fault: 'delay' },
];

/**
 * Two app processes on one database. The first is killed with SIGKILL while
 * it holds an order's lock and its payment call is in flight; the second is
 * refused the order while that lock's lease runs (by the database's clock),
 * takes it over after, and the order is charged once, its effect applied once.
 */
describe.skipIf(postgresSkipped)("an app process killed with SIGKILL while it holds an order's lock, its payment in flight", () => {
  let h: CrashHarness;
  let clock: pg.Pool;
  let holder: ShopProcess | undefined;
  let survivor: ShopProcess | undefined;

  beforeAll(async () => {
    h = await startCrashHarness();
    clock = testPool(h.server.url, { max: 1 });
  });

  afterEach(async () => {
    await stopShopProcess(holder, 'SIGKILL');
    await stopShopProcess(survivor);
  });

  afterAll(async () => {
    await clock?.end();
    await h?.close();
  });

  /** The database's clock, in ms: what every lease is compared with. */
  const dbNow = async () => Number((await clock.query<{ now: string }>('SELECT extract(epoch FROM clock_timestamp()) * 1000 AS now')).rows[0]!.now);

  async function lockUntil(orderId: string): Promise<number | undefined> {
    const { rows } = await clock.query<{ until: string }>('SELECT extract(epoch FROM expires_at) * 1000 AS until FROM paymount_order_locks WHERE reference_order_id = $1', [orderId]);
    return rows[0] === undefined ? undefined : Number(rows[0].until);
  }

  async function post(route: Case['route'], orderId: string, port: number): Promise<Answer> {
    const body = route === 'wallet/pay' ? { orderId, token: h.sandbox.mintWalletToken() } : { orderId };
    try {
      const response = await fetch(`http://127.0.0.1:${port}/payments/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } catch {
      return undefined;
    }
  }

  const inProgress = (answer: Answer) => answer?.status === 409 && (answer.body.error as { code?: string } | undefined)?.code === 'PAYMENT_IN_PROGRESS';

  it.each(CASES.map((c): [string, Case] => [c.name, c]))('%s: the other process is refused while the lock lasts, takes the order over after, and it is charged once', async (name, { route, path, fault }) => {
    const orderId = `dead-${route.replace('/', '-')}-${fault}`;
    await h.addOrder(orderId);
    const survivorPort = await freePort();
    // Both send the service the survivor's webhook URL: the holder's payment is reported to a live process.
    const notifyUrl = `http://127.0.0.1:${survivorPort}/payments/webhook`;
    [holder, survivor] = await Promise.all([startShopProcess({ ...h.config, notifyUrl }), startShopProcess({ ...h.config, port: survivorPort, notifyUrl })]);

    const faultsBefore = h.sandbox.faultsApplied()[fault] ?? 0;
    h.sandbox.injectFault({ kind: fault, path, delayMs: HELD_MS });
    const held = post(route, orderId, h.config.port);
    // The holder's call has reached the service: the order is locked and its attempt recorded pending, in flight.
    await vi.waitFor(() => expect(h.sandbox.faultsApplied()[fault]).toBe(faultsBefore + 1), { timeout: 10_000, interval: 5 });
    const reachedServiceAt = Date.now();
    expect(inProgress(await post(route, orderId, survivorPort)), 'refused while the holder lives').toBe(true);
    holder.child.kill('SIGKILL');
    expect(await holder.exited).toBe('SIGKILL');
    expect(await held).toBeUndefined();
    const leaseEnd = await lockUntil(orderId);
    expect(leaseEnd, 'the dead holder left its lock').toBeDefined();

    // Every refusal was sent while the lease ran; the answer that took the order over came after it ended.
    const refusals: number[] = [];
    let answer: Answer;
    for (;;) {
      const sentAt = await dbNow();
      answer = await post(route, orderId, survivorPort);
      if (!inProgress(answer)) break;
      expect(sentAt, 'a refusal sent after the lease ended').toBeLessThan(leaseEnd!);
      refusals.push(sentAt);
      await sleep(100);
    }
    expect(await dbNow(), 'taken over before the lease ended').toBeGreaterThanOrEqual(leaseEnd!);
    console.info(`${name}: the survivor was refused ${refusals.length} times after the kill, then answered ${answer?.status} ${JSON.stringify(answer?.body)}`);

    if (route === 'wallet/pay') {
      expect(answer).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    } else {
      expect(answer).toMatchObject({ status: 201, body: { checkoutUrl: expect.any(String) } });
      const page = await fetch(`${answer!.body.checkoutUrl as string}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'testCard=approve' });
      expect(page.ok).toBe(true);
    }
    // The holder's late request is processed by now, under the id the survivor sent again: it charged nothing more.
    if (fault === 'late') await sleep(reachedServiceAt + HELD_MS + 500 - Date.now());
    await h.sandbox.waitForDeliveries(30_000);
    const charge = h.chargeOf(orderId);
    await h.reconcileUntilSettled(survivor, orderId);
    expect(await h.effectsOf(orderId)).toEqual({ effects: [charge.transactionId], paidCount: 1 });
    expect(await post('wallet/pay', orderId, survivorPort)).toMatchObject({ status: 200, body: { status: 'succeeded', alreadyPaid: true } });
    expect(h.chargesOf(orderId)).toHaveLength(1);
  });
});
