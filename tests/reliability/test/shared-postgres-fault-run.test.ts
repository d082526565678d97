import type { PaymentEvent } from '@paymount/core';
import { FAULT_KINDS } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { auditCharges } from '../support/charge-audit';
import { FAULT_RUN_SANDBOX, RUN, runFaultMix, runOrderCount } from '../support/fault-run';
import { createAgent } from '../support/http';
import { startPostgresShop, type PostgresShop } from '../support/postgres-shop';

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
    const { sandbox } = run;
    const effects = run.effects;
    const { report, final, chargedTwiceByPattern } = await runFaultMix(
      run,
      agent,
      async () => auditCharges(sandbox.charges(), (await effects()) as PaymentEvent[]),
      orders,
    );
    const identities = (await effects()).map((effect) => `${effect.type}:${effect.transactionId}`);
    const appliedTwice = identities.filter((identity, index) => identities.indexOf(identity) !== index);
    console.info(`shared-PostgreSQL fault run: ${identities.length} effects in the merchant's table, ${appliedTwice.length} twice`);

    console.info(`shared-PostgreSQL fault run: ${JSON.stringify(report)}`);
    console.info(`patterns of the orders charged twice: ${JSON.stringify(chargedTwiceByPattern)}`);
    for (const kind of FAULT_KINDS) expect(report.faultsByKind[kind] ?? 0, kind).toBeGreaterThan(0);
    expect.soft(final.chargedTwice, 'orders charged twice').toEqual([]);
    expect.soft(final.unreported, "charges the merchant's table misses").toEqual([]);
    expect.soft(final.reportedTwice, "charges in the merchant's table twice").toEqual([]);
    expect.soft(appliedTwice, "effects in the merchant's table twice").toEqual([]);
  }, 600_000);
});
