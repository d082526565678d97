import { startSandbox, type Sandbox } from '@paymount/sandbox';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../tools/free-port';
import { startPgWebSocketRelay, type PgWebSocketRelay } from '../../../tools/pg-websocket-relay';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { sandboxService } from '../../../tools/sandbox-service';
import { serveWorker, type RunningWorker } from '../../../tools/workerd';
import type { EdgeDriver, RoutesWorkerService } from './support/routes-worker';

const DRIVERS: readonly EdgeDriver[] = ['postgres.js', 'Neon Pool over WebSocket'];

describe.skipIf(postgresSkipped).each(DRIVERS)('the payment routes in workerd, made for every request, their stores in PostgreSQL through %s', (driver) => {
  let server: PostgresServer;
  let relay: PgWebSocketRelay | undefined;
  let sandbox: Sandbox;
  let worker: RunningWorker;
  let selfUrl: string;
  let sql: postgres.Sql;

  beforeAll(async () => {
    server = await startPostgresServer();
    const url = server.createDatabase('edge_routes');
    // Neon's proxy, played by a local relay: the Worker's WebSocket becomes a TCP connection to the server.
    if (driver === 'Neon Pool over WebSocket') relay = await startPgWebSocketRelay({ host: new URL(url).hostname, port: Number(new URL(url).port) });
    sql = postgres(url, { max: 2, onnotice: () => {} });
    await sql`CREATE TABLE shop_orders (id text PRIMARY KEY, amount bigint NOT NULL, paid_at timestamptz)`;
    await sql`CREATE TABLE shop_effects (order_id text NOT NULL, transaction_id text)`;
    await sql`CREATE TABLE shop_handler_runs (order_id text PRIMARY KEY, runs integer NOT NULL)`;
    await sql`INSERT INTO shop_orders (id, amount) VALUES ('edge-checkout', 2500), ('edge-wallet', 1999), ('throws-wallet', 1500)`;
    // Quick retries: the delivery a throwing handler refuses comes again at once.
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400], log: false });
    const port = await freePort();
    selfUrl = `http://127.0.0.1:${port}`;
    const service: RoutesWorkerService = { ...sandboxService(sandbox), selfUrl };
    // Bundled as wrangler bundles it (the built packages' edge builds, postgres.js's `cloudflare:sockets` build, Neon's
    // driver on the runtime's WebSocket); postgres.js needs nodejs_compat (Buffer).
    worker = await serveWorker(
      { file: `${import.meta.dirname}/support/routes-worker.ts` },
      {
        bindings: { DATABASE_URL: url, DRIVER: driver, NEON_RELAY_HOST: relay?.host ?? '', SERVICE: JSON.stringify(service) },
        port,
        compatibilityFlags: ['nodejs_compat'],
        external: ['cloudflare:*'],
      },
    );
  });
  afterAll(async () => {
    await worker?.dispose();
    await sandbox?.close();
    await sql?.end({ timeout: 1 });
    await relay?.close();
    server?.destroy();
  });

  const post = async (path: string, body: unknown) => {
    const answer = await fetch(`${selfUrl}/payments${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const effectsOf = async (orderId: string) => (await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM shop_effects WHERE order_id = ${orderId}`)[0]?.n;
  const runsOf = async (orderId: string) => (await sql<{ runs: number }[]>`SELECT runs FROM shop_handler_runs WHERE order_id = ${orderId}`)[0]?.runs ?? 0;

  it('20 concurrent checkouts of one order make one checkout session', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/checkout', { orderId: 'edge-checkout' })));
    const made = answers.filter((answer) => answer.status === 201);
    expect(answers.filter((answer) => answer.status !== 201 && answer.status !== 409)).toEqual([]);
    expect(made.length).toBeGreaterThan(0);
    expect(new Set(made.map((answer) => answer.body['checkoutUrl'])).size).toBe(1);
    // Neon's driver reached the server through its WebSocket, not some other way.
    if (driver === 'Neon Pool over WebSocket') expect(relay?.connections).toBeGreaterThan(0);
  });

  it('one signed webhook delivered three times runs its handler once, and the order it paid refuses a second wallet payment (409)', async () => {
    const paid = await post('/wallet/pay', { orderId: 'edge-wallet', token: sandbox.mintWalletToken() });
    expect(paid).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    await sandbox.waitForDeliveries();
    const delivery = sandbox.deliveries().find((d) => d.payload['referenceOrderId'] === 'edge-wallet' && d.resentFrom === undefined);
    expect(delivery?.state).toBe('delivered');
    for (const resent of [await sandbox.resend(delivery!.deliveryId), await sandbox.resend(delivery!.deliveryId)]) expect(resent.state).toBe('delivered');
    expect(await runsOf('edge-wallet')).toBe(1);
    expect(await effectsOf('edge-wallet')).toBe(1);

    const again = await post('/wallet/pay', { orderId: 'edge-wallet', token: sandbox.mintWalletToken() });
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'ORDER_NOT_PAYABLE' } } });
    expect(sandbox.charges().filter((charge) => charge.referenceOrderId === 'edge-wallet')).toHaveLength(1);
  });

  it('an effect survives a handler that throws after writing: rolled back, then written once when the delivery comes again', async () => {
    const paid = await post('/wallet/pay', { orderId: 'throws-wallet', token: sandbox.mintWalletToken() });
    expect(paid).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    await sandbox.waitForDeliveries();
    const delivery = sandbox.deliveries().find((d) => d.payload['referenceOrderId'] === 'throws-wallet');
    expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    expect(await runsOf('throws-wallet')).toBe(2);
    expect(await effectsOf('throws-wallet')).toBe(1);
  });
});
