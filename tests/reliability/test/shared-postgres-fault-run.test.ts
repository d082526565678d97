import { afterAll, beforeAll, describe, it } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { FAULT_RUN_SANDBOX, RUN, runLimitMs, runOrderCount } from '../support/fault-run';
import { createAgent } from '../support/http';
import { expectEachEffectOnce, runAgainstTable, startPostgresShop, tallyLines, type PostgresShop } from '../support/postgres-shop';

/**
 * The fault run (support/fault-run.ts) through three app processes (Express,
 * Koa, createNodeMiddleware), each with its own pool on one PostgreSQL server,
 * whose handler writes each event to the merchant's table in paymount's transaction.
 * The ledger is audited against that table, not against what handlers were
 * called with: no order charged twice, no charge the table misses, no effect
 * in it twice.
 */
describe.skipIf(postgresSkipped)('three app processes on one PostgreSQL under random service faults, late processing included', () => {
  let server: PostgresServer;
  let run: PostgresShop | undefined;
  const agent = createAgent(RUN.concurrency * 4);
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(async () => {
    await run?.close();
    await agent.close();
    server?.destroy();
  });

  const orders = runOrderCount();
  it(`${orders.toLocaleString('en')} orders paid twice, both ways, polled and reconciled: none charged twice, each effect in the merchant's table once`, async () => {
    run = await startPostgresShop({ databaseUrl: server.url, adapters: ['express', 'koa', 'node'], client: RUN.client, orders, sandbox: FAULT_RUN_SANDBOX });
    const audit = await runAgainstTable(run, agent, orders);
    console.info(tallyLines('shared-PostgreSQL fault run', audit));
    expectEachEffectOnce(audit);
  }, runLimitMs(orders));
});
