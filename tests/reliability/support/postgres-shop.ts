import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { PaymentEvent, ReconcileOptions, ReconcileSummary } from '@paymount/core';
import { createPostgresStores, fromPg, inTransaction, migrate } from '@paymount/postgres';
import { FAULT_KINDS, startSandbox, type SandboxClientOptions } from '@paymount/sandbox';
import type pg from 'pg';
import type { Agent } from 'undici';
import { expect } from 'vitest';
import type { AdapterName } from './apps';
import { auditCharges, type ChargeAudit } from './charge-audit';
import { runFaultMix, type FaultRunTarget, type RunTally } from './fault-run';
import type { SharedStoreInstanceOptions, SharedStoreShopOptions } from './shared-store-instance';
import { Shop } from './shop';
import { testPool } from '../../../tools/postgres-pool';

/** The merchant's table of effects: one row per event its handler applied, written in paymount's transaction. */
const EFFECTS_TABLE = `CREATE TABLE IF NOT EXISTS shop_effects (
  id serial PRIMARY KEY, event_type text NOT NULL, transaction_id text, reference_order_id text)`;

const INSTANCE_SCRIPT = fileURLToPath(new URL('./postgres-instance-process.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
/** Compiler options without the workspace's source paths: the instances load paymount's built packages, as a merchant's app does. */
const TSCONFIG = fileURLToPath(new URL('../../../tsconfig.options.json', import.meta.url));
/** How often the instances are told the sandbox clock's offset from real time (the run moves it). */
const CLOCK_SYNC_MS = 50;


/**
 * An instance's stores on `pool`, and the handler that writes each event to the merchant's table in paymount's transaction.
 * Order locks last the least paymount allows, twice the client's deadline (`clientDeadlineMs`), not the default's extra 30 s:
 * a request whose release a server crash refused (or lost, unflushed) leaves its order locked until the lease lapses, and
 * reconciliation takes such an order over only then. With the default the run ended before the leases did, its last
 * reconciliation found those orders still locked, and their effects, delayed rather than lost, were counted missing.
 */
export function postgresRoutes(pool: pg.Pool, shop: Shop, clientDeadlineMs: number | undefined): SharedStoreInstanceOptions['routes'] {
  const stores = createPostgresStores(fromPg(pool));
  return {
    store: stores.idempotency,
    orders: { store: stores.orders, ...(clientDeadlineMs === undefined ? {} : { lockTtlMs: 2 * clientDeadlineMs }) },
    on: {
      '*': inTransaction(async (event: PaymentEvent, { db }) => {
        shop.handlerRuns.push(event);
        await db.query('INSERT INTO shop_effects (event_type, transaction_id, reference_order_id) VALUES ($1, $2, $3)', [
          event.type,
          event.transactionId ?? null,
          event.referenceOrderId ?? null,
        ]);
      }),
    },
  };
}

/** How the test process configures an instance process (PAYMOUNT_INSTANCE, JSON). */
export interface InstanceConfig {
  adapter: AdapterName;
  databaseUrl: string;
  /** The sandbox's client options without its clock (the instance follows the offsets it is sent), gateway and webhook secret. */
  sandbox: { client: Omit<SandboxClientOptions, 'clock'>; gatewayId: string; webhookSecret: string };
  client: SharedStoreShopOptions['client'];
  /** The run's orders, made by addRunOrder in every process alike. */
  orders: number;
}

/** The messages between the test process and an instance process. */
export type ToInstance = { kind: 'clock'; offsetMs: number } | { kind: 'reconcile'; id: number; options: ReconcileOptions };
export type FromInstance =
  | { kind: 'listening'; routesUrl: string }
  | { kind: 'reconciled'; id: number; summary?: ReconcileSummary; error?: string };

/** One merchant deployed as app processes, each with its own pool on one PostgreSQL database, against one sandbox in this process. */
export interface PostgresShop extends FaultRunTarget {
  /** What the merchant's table holds: every applied event, as the handler saw it. */
  effects(): Promise<Array<Pick<PaymentEvent, 'type' | 'transactionId' | 'referenceOrderId'>>>;
  close(): Promise<void>;
}

export interface PostgresShopOptions extends Omit<SharedStoreShopOptions, 'logger' | 'notifies'> {
  databaseUrl: string;
  /** The orders the run will pay (the instances resolve them by the same rule). */
  orders: number;
}

/** Forks one instance process (TypeScript through tsx) and resolves its routes URL once it listens. */
async function forkInstance(config: InstanceConfig): Promise<{ child: ChildProcess; routesUrl: string }> {
  const child = fork(INSTANCE_SCRIPT, {
    cwd: PACKAGE_DIR,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG, PAYMOUNT_INSTANCE: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const routesUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`the ${config.adapter} instance process ended (${signal ?? code}) before listening`)));
    child.on('message', (message: FromInstance) => {
      if (message.kind === 'listening') resolve(message.routesUrl);
    });
  });
  return { child, routesUrl };
}

/** reconcile() of the instance in `child`, over IPC. */
function remoteReconcile(child: ChildProcess): (options?: ReconcileOptions) => Promise<ReconcileSummary> {
  let next = 0;
  return (options = {}) =>
    new Promise((resolve, reject) => {
      const id = (next += 1);
      const answer = (message: FromInstance) => {
        if (message.kind !== 'reconciled' || message.id !== id) return;
        child.off('message', answer);
        if (message.summary) resolve(message.summary);
        else reject(new Error(message.error ?? 'reconcile failed in the instance process'));
      };
      child.on('message', answer);
      child.send({ kind: 'reconcile', id, options } satisfies ToInstance);
    });
}

/**
 * The sandbox here, and one OS process per adapter (support/postgres-instance-process.ts),
 * each with its own pool on `databaseUrl`; paymount's tables and the merchant's are made
 * first, once. The instances read time from the sandbox's clock through the offsets this
 * process sends them.
 */
export async function startPostgresShop(options: PostgresShopOptions): Promise<PostgresShop> {
  const { databaseUrl, adapters, orders } = options;
  const admin = testPool(databaseUrl, { max: 2 });
  await migrate(fromPg(admin));
  await admin.query(EFFECTS_TABLE);
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false, ...options.sandbox });
  const children: ChildProcess[] = [];
  let clockSync: NodeJS.Timeout | undefined;
  const close = async () => {
    clearInterval(clockSync);
    await Promise.all(
      children.filter((child) => child.connected).map(async (child) => {
        const exited = once(child, 'exit');
        child.disconnect();
        await exited;
      }),
    );
    await admin.end();
    await sandbox.close();
  };
  const instances: PostgresShop['instances'] = [];
  try {
    const { clock, ...client } = sandbox.clientOptions();
    const sandboxView = { client, gatewayId: sandbox.gatewayId, webhookSecret: sandbox.webhookSecret };
    const started = await Promise.all(adapters.map((adapter) => forkInstance({ adapter, databaseUrl, sandbox: sandboxView, client: options.client, orders })));
    for (const { child, routesUrl } of started) {
      children.push(child);
      instances.push({ routesUrl, paymentRoutes: { reconcile: remoteReconcile(child) } });
    }
    let sent = 0;
    clockSync = setInterval(() => {
      const offsetMs = clock.now() - Date.now();
      if (Math.abs(offsetMs - sent) < 1) return;
      sent = offsetMs;
      for (const child of children) if (child.connected) child.send({ kind: 'clock', offsetMs } satisfies ToInstance);
    }, CLOCK_SYNC_MS);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    sandbox,
    shop: new Shop(),
    instances,
    close,
    async effects() {
      const { rows } = await admin.query('SELECT event_type, transaction_id, reference_order_id FROM shop_effects');
      return rows.map((row) => ({ type: row.event_type, transactionId: row.transaction_id ?? undefined, referenceOrderId: row.reference_order_id ?? undefined }));
    },
  };
}

/** A fault run through a PostgresShop, audited against the merchant's table. */
export interface TableAudit {
  report: RunTally;
  /** The ledger against the table: orders charged twice, charges it misses, charges in it twice. */
  final: ChargeAudit;
  chargedTwiceByPattern: Record<string, number>;
  /** Rows in the merchant's table, and the events among them applied more than once. */
  effects: number;
  appliedTwice: string[];
}

/** runFaultMix through `run`, audited against what the merchant's table holds. */
export async function runAgainstTable(run: PostgresShop, agent: Agent, orders: number, whenServing?: (orderIndex: number) => Promise<void>): Promise<TableAudit> {
  const audit = async () => auditCharges(run.sandbox.charges(), (await run.effects()) as PaymentEvent[]);
  const result = await runFaultMix(run, agent, audit, orders, whenServing);
  const identities = (await run.effects()).map((effect) => `${effect.type}:${effect.transactionId}`);
  return { ...result, effects: identities.length, appliedTwice: identities.filter((identity, index) => identities.indexOf(identity) !== index) };
}

/** The run's tally, in lines headed `name`, for the test's output. */
export function tallyLines(name: string, { report, chargedTwiceByPattern, effects, appliedTwice }: TableAudit): string {
  return [
    `${name}: ${effects} effects in the merchant's table, ${appliedTwice.length} twice`,
    `${name}: ${JSON.stringify(report)}`,
    `patterns of the orders charged twice: ${JSON.stringify(chargedTwiceByPattern)}`,
  ].join('\n');
}

/** The run met every kind of fault, and no order was charged twice, no charge missed by the merchant's table, no effect applied twice. */
export function expectEachEffectOnce({ report, final, appliedTwice }: TableAudit): void {
  for (const kind of FAULT_KINDS) expect(report.faultsByKind[kind] ?? 0, kind).toBeGreaterThan(0);
  expect.soft(final.chargedTwice, 'orders charged twice').toEqual([]);
  expect.soft(final.unreported, "charges the merchant's table misses").toEqual([]);
  expect.soft(final.reportedTwice, "charges in the merchant's table twice").toEqual([]);
  expect.soft(appliedTwice, "effects in the merchant's table twice").toEqual([]);
}
