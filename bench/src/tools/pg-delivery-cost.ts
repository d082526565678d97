import { createPostgresStores, fromPg, migrate, type PostgresDatabase } from '@paymount/postgres';
import pg from 'pg';
import { startPostgresServer } from '../../../tools/postgres-server';
import { parentOf, processTreeCpuMicros } from '../harness/process-cpu';

/**
 * CPU per webhook delivery's store traffic (claim, then mark handled with a
 * handler that sends nothing) on a PostgreSQL server this starts: the
 * server's processes' and this process's, over many deliveries, each way of
 * sending statements measured in turns on the same server.
 * Usage: node --import tsx src/tools/pg-delivery-cost.ts [deliveries per turn] [turns]
 */
const DELIVERIES = Number(process.argv[2] ?? 10_000);
const TURNS = Number(process.argv[3] ?? 4);
const IN_FLIGHT = 20;
const TTL_MS = 60_000;
async function deliveries(db: PostgresDatabase, prefix: string): Promise<void> {
  const { idempotency } = createPostgresStores(db, { migrate: false });
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < DELIVERIES) {
        const key = `${prefix}-${(next += 1)}`;
        if (!(await idempotency.claim(key, TTL_MS))) throw new Error(`${key} was claimed already`);
        await idempotency.runHandled(key, TTL_MS, async () => undefined);
      }
    }),
  );
}

const server = await startPostgresServer();
const pool = new pg.Pool({ connectionString: server.url, max: IN_FLIGHT });
// The server stops as the pool ends: an idle connection's "terminating connection" is expected then.
pool.on('error', () => {});
try {
  await migrate(fromPg(pool));
  const backend = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const postmaster = parentOf(backend);
  const ways: Record<string, PostgresDatabase> = { prepared: fromPg(pool), unnamed: fromPg(pool, { prepare: false }) };
  for (const [name, db] of Object.entries(ways)) await deliveries(db, `warm-${name}`);
  const results = new Map<string, { server: number[]; app: number[] }>(Object.keys(ways).map((name) => [name, { server: [], app: [] }]));
  for (let turn = 0; turn < TURNS; turn++) {
    for (const [name, db] of Object.entries(ways)) {
      const [server0, app0] = [processTreeCpuMicros(postmaster), process.cpuUsage()];
      await deliveries(db, `${name}-${turn}`);
      const app = process.cpuUsage(app0);
      results.get(name)!.server.push((processTreeCpuMicros(postmaster) - server0) / DELIVERIES);
      results.get(name)!.app.push((app.user + app.system) / DELIVERIES);
    }
  }
  const line = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} (${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)})`;
  };
  console.log(`${DELIVERIES} deliveries × ${TURNS} turns, ${IN_FLIGHT} in flight; CPU µs per delivery`);
  for (const [name, { server: s, app }] of results) console.log(`${name.padEnd(10)} server ${line(s)}   app ${line(app)}`);
} finally {
  await pool.end();
  server.destroy();
}
