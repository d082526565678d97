import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type Charge, type Delivery, type Sandbox } from '@paymount/sandbox';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { freePort } from '../../../../tools/free-port';
import { startPostgresServer, type PostgresServer } from '../../../../tools/postgres-server';
import { fromPg, migrate } from '../../src';
import { CRASH_POINTS, SHOP_TABLES, type CrashPoint, type ShopConfig } from './shop';
import { stopShopProcess, type ShopProcess } from './shop-processes';
import type { WebhookGate } from './webhook-gate';
import { testPool } from '../../../../tools/postgres-pool';

/** A dead shop's claim on an event lapses this long after it was taken (renewed while its handler runs). */
export const PROCESSING_TTL_MS = 1_000;
/** Short client limits and lock lease: a lock a dead process (or a server crash) left lapses within a test. */
export const TIMING = { timeoutMs: 2_000, deadlineMs: 2_000, lockTtlMs: 4_000 };
/** How long a repay or a reconciliation may wait for a dead holder's lock and claim to lapse. */
const TAKEOVER_WAIT_MS = 20_000;

/** Every crash point, `runs` times each: [point, run]. */
export const crashRuns = (runs: number): Array<[CrashPoint, number]> =>
  CRASH_POINTS.flatMap((point) => Array.from({ length: runs }, (_, n): [CrashPoint, number] => [point, n + 1]));

/**
 * A delivery retried every quarter second for a minute: soon after a dead shop's claim lapses and its successor
 * listens, which a busy machine may take tens of seconds to start.
 */
export const WEBHOOK_RETRIES = [100, ...Array.from({ length: 240 }, () => 250)];

/** What a route answered; undefined when the shop died before answering. */
export type Answer = { status: number; body: Record<string, unknown> } | undefined;

/**
 * What the crash tests share: a PostgreSQL server with paymount's tables and
 * the merchant's, a sandbox, the shops' configuration, and the readings of
 * what the merchant's table, paymount's rows and the sandbox's ledger hold.
 */
export interface CrashHarness {
  server: PostgresServer;
  sandbox: Sandbox;
  /** A shop on a port of its own; each shop started with it answers there, dead or restarted. */
  config: ShopConfig;
  addOrder(id: string): Promise<void>;
  /** POST /wallet/pay to the shop at `port` (default config.port). */
  pay(orderId: string, port?: number): Promise<Answer>;
  /** Pays a paid order until a lock a dead holder left lapses: resolves how many 409 PAYMENT_IN_PROGRESS answers came first; every other answer fails. */
  payAgainOnceUnlocked(orderId: string, port?: number): Promise<number>;
  /** The shop's effects of the order: one row per run of its handler that committed. */
  effectsOf(orderId: string): Promise<{ effects: string[]; paidCount: number }>;
  /** paymount's rows for the order: its attempt's state and handled state, and whether a lock row is there (lapsed or not). */
  recordsOf(orderId: string): Promise<{ state?: string; handledState?: string; locked: boolean }>;
  /** Reconciles on `shop` until the order's attempt records its outcome as handled (a dead reconciler's lock and claim lapse first). */
  reconcileUntilSettled(shop: ShopProcess, orderId: string): Promise<void>;
  deliveryOf(transactionId: string): Delivery | undefined;
  chargesOf(orderId: string): Charge[];
  /** The order's one charge: fails unless the sandbox charged it exactly once. */
  chargeOf(orderId: string): Charge;
  /**
   * Stops the server's WAL writer (SIGSTOP) until the next crashServer():
   * meanwhile WAL reaches the disk only through a commit that waits for it,
   * so every write answered without waiting is lost in the crash, however
   * the crash and the writer's wake-ups fall.
   */
  freezeWalWriter(): Promise<void>;
  /** Crashes the server (server.crash: no checkpoint, WAL not yet written lost; a frozen WAL writer killed first) and starts it again. */
  crashServer(): Promise<void>;
  close(): Promise<void>;
}

const adminPool = (url: string) => testPool(url, { max: 2 });

export async function startCrashHarness(): Promise<CrashHarness> {
  const server = await startPostgresServer();
  let admin = adminPool(server.url);
  let frozenWalWriter: number | undefined;
  // What a store writes without waiting for the disk stays in memory until the WAL writer's next round, at most 10 s later, and no
  // other process flushes it meanwhile (autovacuum's commits, the background writer's and a checkpoint's page writes): a crash loses it.
  const settings = ["wal_writer_delay = '10s'", 'autovacuum = off', 'bgwriter_lru_maxpages = 0', "checkpoint_timeout = '1h'"];
  for (const setting of settings) await admin.query(`ALTER SYSTEM SET ${setting}`);
  await admin.query('SELECT pg_reload_conf()');
  await migrate(fromPg(admin));
  await admin.query(SHOP_TABLES);
  // Its log would list every delivery a dead shop or a closed gate refused: the tests read the deliveries instead.
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, log: false, webhookRetryDelaysMs: WEBHOOK_RETRIES });
  const config: ShopConfig = {
    sandbox: { url: sandbox.url, apiKey: sandbox.apiKey, appId: sandbox.appId, merchantId: sandbox.merchantId, webhookSecret: sandbox.webhookSecret },
    databaseUrl: server.url,
    port: await freePort(),
    processingTtlMs: PROCESSING_TTL_MS,
    timing: TIMING,
  };

  async function pay(orderId: string, port = config.port): Promise<Answer> {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/payments/wallet/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, token: sandbox.mintWalletToken() }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } catch {
      return undefined;
    }
  }

  async function recordsOf(orderId: string) {
    const attempt = await admin.query('SELECT state, handled_state FROM paymount_order_attempts WHERE reference_order_id = $1', [orderId]);
    const lock = await admin.query('SELECT 1 FROM paymount_order_locks WHERE reference_order_id = $1', [orderId]);
    const row = attempt.rows[0] as { state: string; handled_state: string | null } | undefined;
    return {
      ...(row === undefined ? {} : { state: row.state }),
      ...(row?.handled_state == null ? {} : { handledState: row.handled_state }),
      locked: lock.rows.length > 0,
    };
  }

  const chargesOf = (orderId: string) => sandbox.charges().filter((charge) => charge.referenceOrderId === orderId);

  return {
    server,
    sandbox,
    config,
    addOrder: async (id) => void (await admin.query('INSERT INTO shop_orders (id, amount) VALUES ($1, 1250)', [id])),
    pay,
    async payAgainOnceUnlocked(orderId, port) {
      const giveUpAt = Date.now() + TAKEOVER_WAIT_MS;
      for (let refusals = 0; ; refusals += 1) {
        const answer = await pay(orderId, port);
        const locked = answer?.status === 409 && (answer.body.error as { code?: string } | undefined)?.code === 'PAYMENT_IN_PROGRESS';
        if (!locked || Date.now() > giveUpAt) {
          expect(answer).toMatchObject({ status: 200, body: { status: 'succeeded', alreadyPaid: true } });
          return refusals;
        }
        await sleep(250);
      }
    },
    async effectsOf(orderId) {
      const effects = await admin.query('SELECT transaction_id FROM shop_effects WHERE order_id = $1', [orderId]);
      const order = await admin.query('SELECT paid_count FROM shop_orders WHERE id = $1', [orderId]);
      return { effects: effects.rows.map((row) => row.transaction_id as string), paidCount: order.rows[0]?.paid_count as number };
    },
    recordsOf,
    async reconcileUntilSettled(shop, orderId) {
      await vi.waitFor(
        async () => {
          await shop.reconcile();
          expect(await recordsOf(orderId)).toMatchObject({ state: 'succeeded', handledState: 'succeeded' });
        },
        { timeout: TAKEOVER_WAIT_MS, interval: 250 },
      );
    },
    deliveryOf: (transactionId) => sandbox.deliveries().find((delivery) => JSON.parse(delivery.body).transactionId === transactionId),
    chargesOf,
    chargeOf(orderId) {
      const charges = chargesOf(orderId);
      expect(charges.map((charge) => charge.transactionStatus)).toEqual(['S']);
      return charges[0]!;
    },
    async freezeWalWriter() {
      const { rows } = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE backend_type = 'walwriter'");
      frozenWalWriter = rows[0]?.pid;
      if (frozenWalWriter === undefined) throw new Error('the server shows no WAL writer process');
      process.kill(frozenWalWriter, 'SIGSTOP');
    },
    async crashServer() {
      // Killed, not resumed: a resumed WAL writer would flush before the server stops.
      if (frozenWalWriter !== undefined) process.kill(frozenWalWriter, 'SIGKILL');
      frozenWalWriter = undefined;
      await server.crash(0);
      // A new pool starts clean: none of its connections was open to the server that died.
      const dead = admin;
      admin = adminPool(server.url);
      await dead.end().catch(() => {});
    },
    async close() {
      await sandbox.close();
      await admin.end();
      server.destroy();
    },
  };
}

/** What a crash test holds: the harness, and the shop process and webhook gate it started last (killed and closed after it). */
export interface CrashSuite {
  h: CrashHarness;
  shop?: ShopProcess | undefined;
  gate?: WebhookGate | undefined;
}

/** Registers, in the calling describe, the hooks that start the harness before its tests, end what each test left, and close the harness. */
export function crashSuite(): CrashSuite {
  const suite = {} as CrashSuite;
  beforeAll(async () => {
    suite.h = await startCrashHarness();
  });
  afterEach(async () => {
    await stopShopProcess(suite.shop, 'SIGKILL');
    await suite.gate?.close();
    suite.gate = undefined;
  });
  afterAll(async () => {
    await suite.h?.close();
  });
  return suite;
}
