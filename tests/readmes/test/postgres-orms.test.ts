import { join } from 'node:path';
import { signWebhook, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import type { PostgresStores } from '@paymount/postgres';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import type { PrismaPg } from '@prisma/adapter-pg';
import { eq } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../tools/free-port';
import { POSTGRES_START_LIMIT_MS, postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { readmeBlocks } from '../../../tools/readme-blocks';
import { repoRoot } from '../src/workspace';
import { given, runBlock } from './support/run-block';
import { testPool } from '../../../tools/postgres-pool';

/** What every ORM block of the PostgreSQL stores page declares, and the test reads. */
interface OrmBlock {
  pool: pg.Pool;
  stores: PostgresStores;
  paymentRoutes: PaymentRoutes;
}

interface OrmExample<T extends OrmBlock> {
  name: string;
  /** The module the page's block imports, which tells it from the others. */
  imports: string;
  /** Names the block declares, besides OrmBlock's, that `paidAt` uses (and it does not export). */
  declares: string[];
  /** The order's paid_at, read through the ORM's own connection. */
  paidAt(block: T, orderId: string): Promise<unknown>;
}

type DrizzleBlock = OrmBlock & { orm: NodePgDatabase; orders: PgTable & { id: PgColumn; paidAt: PgColumn } };
type KyselyBlock = OrmBlock & { orm: Kysely<{ orders: { id: string; paid_at: Date | null } }> };
type PrismaBlock = OrmBlock & { adapter: PrismaPg };

const drizzle: OrmExample<DrizzleBlock> = {
  name: 'Drizzle',
  imports: 'drizzle-orm',
  declares: ['orm', 'orders'],
  paidAt: async ({ orm, orders }, orderId) => (await orm.select({ paidAt: orders.paidAt }).from(orders).where(eq(orders.id, orderId)))[0]?.paidAt,
};

const kysely: OrmExample<KyselyBlock> = {
  name: 'Kysely',
  imports: 'kysely',
  declares: ['orm'],
  paidAt: async ({ orm }, orderId) => (await orm.selectFrom('orders').select('paid_at').where('id', '=', orderId).executeTakeFirst())?.paid_at,
};

const prisma: OrmExample<PrismaBlock> = {
  name: 'Prisma',
  imports: '@prisma/adapter-pg',
  // The block exports its `adapter` itself.
  declares: [],
  async paidAt({ adapter }, orderId) {
    // The adapter's connection, as the generated PrismaClient runs its queries through it.
    const connection = await adapter.connect();
    try {
      const result = await connection.queryRaw({ sql: 'SELECT paid_at FROM orders WHERE id = $1', args: [orderId], argTypes: [{ scalarType: 'string', arity: 'scalar' }] });
      return result.rows[0]?.[0];
    } finally {
      await connection.dispose();
    }
  },
};

/** The table the page's handlers update: the merchant's own orders. */
const ORDERS_TABLE = 'CREATE TABLE orders (id text PRIMARY KEY, paid_at timestamp)';

/** The page the ORM examples moved to from the postgres README (tests/site compiles them; here they run). */
const ORMS_PAGE = join(repoRoot, 'site/concepts/stores-postgres.md');
const ormBlocks = readmeBlocks('stores-postgres', ORMS_PAGE).filter((block) => block.section === 'Drizzle, Kysely, Prisma');

function jsonRequest(path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return { method: 'POST', path, headers, query: {}, readBody: async () => new TextEncoder().encode(body) };
}

const answer = (response: Awaited<ReturnType<PaymentRoutes['handle']>>) => ({ status: response?.status, body: JSON.parse(response?.body ?? 'null') as unknown });

describe.skipIf(postgresSkipped)("the PostgreSQL stores page (site/concepts/stores-postgres.md): the Drizzle, Kysely and Prisma examples, run as written on a PostgreSQL server", () => {
  let server: PostgresServer;
  let sandbox: Sandbox;

  beforeAll(async () => {
    server = await startPostgresServer();
    // No webhook reaches the blocks' routes by itself (they are not served): each test hands them the sandbox's
    // delivery, whose failed attempt the sandbox would otherwise log.
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [], log: false });
    given.options = {
      client: { apiKey: sandbox.apiKey, baseUrl: sandbox.url, appId: sandbox.appId, merchantId: sandbox.merchantId, localDevelopment: true },
      resolveOrder: async (orderId: string) => ({ referenceOrderId: orderId, amount: { orderAmount: 1250, priceCurrency: 'USD' }, description: 'A shop order' }),
      notifyUrl: `http://127.0.0.1:${await freePort()}/payments/webhook`,
      webhook: { secret: sandbox.webhookSecret },
      logger: false,
    } satisfies PaymentRoutesOptions;
  }, POSTGRES_START_LIMIT_MS);

  afterAll(async () => {
    await sandbox?.close();
    server?.destroy();
  });

  it('finds the three examples on the page', () => {
    expect(ormBlocks.map((block) => [drizzle, kysely, prisma].find((orm) => block.code.includes(`from '${orm.imports}'`))?.name)).toEqual(['Drizzle', 'Kysely', 'Prisma']);
  });

  const describeOrm = <T extends OrmBlock>(orm: OrmExample<T>) =>
    describe(`${orm.name}: the stores and the handler on the ORM's pool`, () => {
      let block: T;
      let admin: pg.Pool;
      const orderId = `readme-${orm.name.toLowerCase()}`;

      beforeAll(async () => {
        const url = server.createDatabase(`readme_${orm.name.toLowerCase()}`);
        admin = testPool(url, { max: 1 });
        await admin.query(ORDERS_TABLE);
        await admin.query('INSERT INTO orders (id) VALUES ($1)', [orderId]);
        const found = ormBlocks.find((candidate) => candidate.code.includes(`from '${orm.imports}'`));
        if (!found) throw new Error(`site/concepts/stores-postgres.md has no ${orm.name} example under "## Drizzle, Kysely, Prisma"`);
        vi.stubEnv('DATABASE_URL', url);
        try {
          block = await runBlock<T>(found, ['pool', 'stores', 'paymentRoutes', ...orm.declares]);
        } finally {
          vi.unstubAllEnvs();
        }
      }, POSTGRES_START_LIMIT_MS);

      afterAll(async () => {
        await block?.paymentRoutes.close();
        await block?.pool.end();
        await admin?.end();
      });

      it("a wallet payment through its routes: the order's attempt written and read back through stores.orders", async () => {
        const paid = await block.paymentRoutes.handle(jsonRequest('/wallet/pay', JSON.stringify({ orderId, token: sandbox.mintWalletToken() })));
        expect(answer(paid)).toMatchObject({ status: 200, body: { status: 'succeeded', referenceOrderId: orderId } });
        const charge = sandbox.charges().find((candidate) => candidate.referenceOrderId === orderId);
        expect(await block.stores.orders.get(orderId)).toMatchObject({ referenceOrderId: orderId, state: 'succeeded', transactionId: charge?.transactionId });
        // Not paid yet: the handler runs on the webhook.
        expect(await orm.paidAt(block, orderId)).toBeNull();
      });

      it("its webhook: the event claimed, the page's UPDATE committed in the transaction that marks it handled, read back by the ORM; a redelivery is a duplicate", async () => {
        await sandbox.waitForDeliveries(10_000);
        const delivery = sandbox.deliveries().find((candidate) => candidate.body.includes(`"referenceOrderId":"${orderId}"`));
        if (!delivery) throw new Error(`the sandbox sent no webhook for ${orderId}`);
        const deliver = async (deliveryId: string) => {
          const { body, headers } = signWebhook({ rawBody: delivery.body, secret: sandbox.webhookSecret, deliveryId });
          return answer(await block.paymentRoutes.handle(jsonRequest('/webhook', body, headers)));
        };
        expect(await deliver('first')).toEqual({ status: 200, body: { received: true } });
        expect(await orm.paidAt(block, orderId)).not.toBeNull();
        // One transaction wrote the order's row and the event's mark: both rows carry its id (xmin).
        const order = await admin.query<{ xmin: string }>('SELECT xmin::text FROM orders WHERE id = $1', [orderId]);
        const events = await admin.query<{ xmin: string; state: string }>('SELECT xmin::text, state FROM paymount_webhook_events');
        expect(events.rows).toEqual([{ xmin: order.rows[0]?.xmin, state: 'done' }]);

        expect(await deliver('again')).toEqual({ status: 200, body: { received: true, duplicate: true } });
        expect((await admin.query('SELECT xmin::text FROM orders WHERE id = $1', [orderId])).rows).toEqual(order.rows);
      });

      it("the server ends the pool's idle connections, as its restart does: the page's 'error' listener logs it, the process lives on, and the pool answers again", async () => {
        // A query through the ORM leaves its connection idle in the block's pool.
        expect(await orm.paidAt(block, orderId)).not.toBeNull();
        const connections = block.pool.idleCount;
        expect(connections).toBeGreaterThan(0);
        expect(block.pool.totalCount).toBe(connections);
        const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
        try {
          // Every connection to this database but the admin's own (pg_backend_pid): the block's pool's.
          const ended = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
          expect(ended.rowCount).toBe(connections);
          // One line per connection, each then dropped from the pool; unheard, the pool's 'error' would be an uncaught exception, failing this run.
          await vi.waitFor(() => expect(logged).toHaveBeenCalledTimes(connections), { timeout: 10_000 });
          expect(new Set(logged.mock.calls.map(String))).toEqual(new Set(['postgres pool: terminating connection due to administrator command']));
        } finally {
          logged.mockRestore();
        }
        expect(await orm.paidAt(block, orderId)).not.toBeNull();
      });
    });

  describeOrm(drizzle);
  describeOrm(kysely);
  describeOrm(prisma);
});
