import { createPostgresStores, fromNeon, fromPg, migrate, type PgPoolLike, type PgQueryConfig, type PostgresDatabase } from '@paymount/postgres';
import pg from 'pg';
import { seedMerchantOrders } from '../fixtures/merchant-orders';
import { WEBHOOK_SECRET } from '../fixtures/shop';
import { PAYLOAD_BYTES } from '../fixtures/webhook-delivery';
import { runClosedLoop, type ClosedLoopResult } from '../harness/closed-loop';
import { cpuPairsFor, pairedRuns } from '../harness/paired';
import { parentOf, processTreeCpuMicros } from '../harness/process-cpu';
import type { RequestSpec } from '../harness/request-makers';
import type { Figure } from '../harness/results';
import { withScope } from '../harness/scope';
import { neonPoolThroughRelay } from '../../../tools/pg-websocket-relay';
import type { BenchSettings } from '../harness/settings';
import { storeCycle } from '../subjects/store-cycle';
import { measureRoutePair, routeFigures, startRouteBench } from './routes';
import { storesFigure } from './stores-figure';

const DELIVERY: RequestSpec = { kind: 'webhook', path: '/payments/webhook', secret: WEBHOOK_SECRET, payloadBytes: PAYLOAD_BYTES };
/** Every delivery a new event, in every run: each one runs its handler (a repeated event would be answered as a duplicate). */
const FRESH_DELIVERY: RequestSpec = { ...DELIVERY, freshEvents: true };
/** The order of the recorded cycle: a key no other parameter contains, replaced by each cycle's own. */
export const RECORDED_KEY = 'bench-recorded-order-0001';

/** Checked before the group starts: without a PostgreSQL server to start, its figures are skipped, not failed. */
export async function postgresServerMissing(): Promise<string | undefined> {
  // Loaded here, not at the top: the helper warns (or under CI throws) as it loads on a machine without PostgreSQL.
  const { postgresServerAvailable } = await import('../../../tools/postgres-server');
  if (postgresServerAvailable) return undefined;
  return 'PostgreSQL (pg_ctl) cannot be started here, so postgres-stores, webhook-postgres and webhook-postgres-tx were not measured';
}

/** What the stores handed to pg: a statement on the Pool, or those on a connection it lent (BEGIN ... COMMIT). */
export type Step = { kind: 'query'; sent: PgQueryConfig } | { kind: 'transaction'; sent: PgQueryConfig[] };

/** `pool` as fromPg takes it, noting every statement sent through it, in order, as the driver got it (named when prepared). */
function recording(pool: PgPoolLike, steps: Step[]): PgPoolLike {
  return {
    get totalCount() {
      return pool.totalCount;
    },
    query: (config) => {
      steps.push({ kind: 'query', sent: config });
      return pool.query(config);
    },
    connect: async () => {
      const client = await pool.connect();
      const sent: PgQueryConfig[] = [];
      steps.push({ kind: 'transaction', sent });
      return { query: (config) => (sent.push(config), client.query(config)), release: (destroy) => client.release(destroy) };
    },
  };
}

/**
 * The statements storeCycle for RECORDED_KEY sends through stores on `pool`
 * (its tables made): those of a second cycle, after the stores' one-time
 * queries (the durability check, a first purge of expired rows).
 */
export async function recordCycle(pool: PgPoolLike, wrap: (pool: PgPoolLike) => PostgresDatabase = fromPg): Promise<Step[]> {
  const steps: Step[] = [];
  const stores = createPostgresStores(wrap(recording(pool, steps)), { migrate: false });
  await storeCycle(stores, 'bench-warm-order');
  steps.length = 0;
  await storeCycle(stores, RECORDED_KEY);
  return steps;
}

/** The recorded statements for order `key`: the same text (and name), the recorded key in each parameter replaced. */
export async function replay(pool: PgPoolLike, steps: readonly Step[], key: string): Promise<void> {
  const forKey = (sent: PgQueryConfig): PgQueryConfig => ({
    ...sent,
    values: sent.values.map((param) => (typeof param === 'string' ? param.replaceAll(RECORDED_KEY, key) : param)),
  });
  for (const step of steps) {
    if (step.kind === 'query') {
      await pool.query(forKey(step.sent));
      continue;
    }
    const client = await pool.connect();
    try {
      for (const sent of step.sent) await client.query(forKey(sent));
    } finally {
      client.release();
    }
  }
}

/**
 * storeCycle through @paymount/postgres on `pool` (wrapped by `wrap`, as a
 * merchant does) vs the statements it sent, recorded once as the driver got
 * them (prepared statements' names included), sent again with the bare pool,
 * settings.connections cycles in flight. Judged on CPU time per cycle, this
 * process's and the server's (`postmaster` and its backends): on this shared
 * machine cycles/s spread wider than the gap to the target.
 */
async function driverStoresFigure(
  settings: BenchSettings,
  pool: PgPoolLike,
  { id, driver, wrap, postmaster }: { id: string; driver: string; wrap: (pool: PgPoolLike) => PostgresDatabase; postmaster: number },
): Promise<Figure> {
  const stores = createPostgresStores(wrap(pool), { migrate: false });
  // Its one-time queries before the measured cycles, as in the record.
  await storeCycle(stores, `bench-warm-order-${id}`);
  const steps = await recordCycle(pool, wrap);
  let next = 0;
  const measure = (cycle: (key: string) => Promise<void>) => () =>
    runClosedLoop({
      concurrency: settings.connections,
      warmupMs: settings.warmupMs,
      durationMs: settings.durationMs,
      maxOps: settings.maxOps,
      op: async () => (await cycle(`bench-${id}-order-${(next += 1)}`), true),
      serverCpuMicros: () => processTreeCpuMicros(postmaster),
    });
  const runs = await pairedRuns(cpuPairsFor(settings.runs), [
    { name: 'paymount', measure: measure((key) => storeCycle(stores, key)) },
    { name: 'bare', measure: measure((key) => replay(pool, steps, key)) },
  ]);
  const cycles = (side: readonly ClosedLoopResult[]) => side.map((run) => ({ cyclesPerSecond: run.opsPerSecond, cpuMicrosPerCycle: run.cpuMicrosPerOp }));
  return storesFigure(
    id,
    `a paid order's store traffic (lock, get, put ×2, settle, unlock; claim, mark handled) through @paymount/postgres on ${driver} vs the same ${steps.length} statements (prepared alike) sent with the bare pool (the CPU of this process and the server), ${settings.connections} cycles in flight`,
    cycles(runs.get('paymount')!),
    cycles(runs.get('bare')!),
  );
}

/**
 * postgres-stores and postgres-stores-neon: driverStoresFigure on a pg Pool
 * and on Neon's serverless Pool; webhook-postgres: POST
 * /webhook deduplicated in PostgreSQL vs in memory (reported);
 * webhook-postgres-tx: the same route whose handler marks the order paid in
 * the event's transaction vs in memory with the same UPDATE through a pool.
 * All on a PostgreSQL server this group starts (tools/postgres-server.ts)
 * and destroys.
 */
export async function postgresStoreFigures(settings: BenchSettings): Promise<Figure[]> {
  const { startPostgresServer } = await import('../../../tools/postgres-server');
  const server = await startPostgresServer();
  const pool = new pg.Pool({ connectionString: server.url, max: settings.connections });
  try {
    await migrate(fromPg(pool));
    const postmaster = parentOf((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    const storesFigure = await driverStoresFigure(settings, pool, {
      postmaster,
      id: 'postgres-stores',
      driver: 'a pg Pool',
      wrap: fromPg,
    });
    // A database of its own: its recorded cycle must find no attempt the pg Pool's left for the recorded order.
    const neon = await neonPoolThroughRelay(server.createDatabase('bench_neon_stores'), settings.connections);
    const neonFigure = await migrate(fromNeon(neon.pool))
      .then(() =>
        driverStoresFigure(settings, neon.pool, {
          postmaster,
          id: 'postgres-stores-neon',
          driver: "Neon's serverless Pool (over a WebSocket, through a local relay to the server, as both sides are)",
          wrap: fromNeon,
        }),
      )
      .finally(() => neon.end());

    const routes = await withScope(async (scope) => {
      const { upstream, load } = await startRouteBench(scope);
      return measureRoutePair(scope, settings, load, { framework: 'express', upstream }, DELIVERY, 200, [
        { name: 'postgres', side: 'paymount', variant: { databaseUrl: server.url } },
        { name: 'memory', side: 'paymount' },
      ]);
    });
    await seedMerchantOrders(pool);
    const exactlyOnce = await withScope(async (scope) => {
      const { upstream, load } = await startRouteBench(scope);
      return measureRoutePair(scope, settings, load, { framework: 'express', upstream }, FRESH_DELIVERY, 200, [
        { name: 'postgres-tx', side: 'paymount', variant: { databaseUrl: server.url, markPaid: { through: 'transaction' } } },
        { name: 'memory-pool', side: 'paymount', variant: { markPaid: { through: 'pool', databaseUrl: server.url } } },
      ]);
    });
    return [
      storesFigure,
      neonFigure,
      ...routeFigures(
        'webhook-postgres',
        'POST /webhook (@paymount/express, distinct signed 1 KiB deliveries) deduplicated in PostgreSQL (a local server; the claim, then the mark: the handler, a counter, sends nothing through its transaction, which then never begins) vs in memory, one app process each',
        routes,
        { throughput: 0.4 },
      ),
      ...routeFigures(
        'webhook-postgres-tx',
        "POST /webhook (@paymount/express, distinct signed 1 KiB deliveries, every one a new event) whose handler marks the event's order paid with one UPDATE of the merchant's orders table in the transaction that marks the event handled (inTransaction, the Postgres store) vs deduplicated in memory with the same UPDATE (prepared alike) through a pg Pool of the handler's own: what exactly-once costs over the merchant's own write, one app process each",
        exactlyOnce,
        { throughput: 0.4 },
      ),
    ];
  } finally {
    await pool.end();
    server.destroy();
  }
}
