import { afterAll, beforeAll, describe } from 'vitest';
import { describeIdempotencyStoreContract } from '../../../tools/idempotency-store-contract';
import { describeOrderAttemptStoreContract } from '../../../tools/order-store-contract';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { createPostgresStores, type PostgresStores } from '../src';
import { connect, pglite, type Connection, type DriverName } from './support/databases';

/** Both contracts against stores made by `open` (each call: a new connection to the same database). */
function describeContracts(name: string, open: () => Promise<Connection>): void {
  const connections: Connection[] = [];
  const storesOn = async (): Promise<PostgresStores> => {
    const connection = await open();
    connections.push(connection);
    return createPostgresStores(connection.db);
  };
  afterAll(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
  });
  describeOrderAttemptStoreContract(name, {
    create: async () => (await storesOn()).orders,
    stores: async (count) => Promise.all(Array.from({ length: count }, async () => (await storesOn()).orders)),
  });
  describeIdempotencyStoreContract(name, {
    create: async () => (await storesOn()).idempotency,
    instances: async () => [(await storesOn()).idempotency, (await storesOn()).idempotency],
  });
}

describe.skipIf(postgresSkipped)('a real PostgreSQL server', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(() => server?.destroy());
  for (const driver of ['pg Pool', 'pg Client', 'postgres.js', 'pg Pool, unprepared', 'postgres.js, unprepared', 'Neon Pool over WebSocket'] satisfies DriverName[]) {
    describeContracts(`PostgreSQL through ${driver}`, () => connect(driver, server.url));
  }
});

describe('PGlite', () => {
  // One database in this process: every "connection" is a new set of stores on it. Started before the tests: its
  // WebAssembly start-up takes seconds, a minute on a machine loaded many times over, which no test's limit should pay for.
  let shared: Connection | undefined;
  beforeAll(async () => {
    shared = await pglite();
  }, 180_000);
  afterAll(async () => shared?.close());
  describeContracts('PGlite', async () => ({ db: shared!.db, close: async () => {} }));
});
