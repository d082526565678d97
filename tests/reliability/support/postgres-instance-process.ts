/**
 * One app instance of the shared-PostgreSQL fault run in a process of its own
 * (support/postgres-shop.ts forks it): configured by PAYMOUNT_INSTANCE, it
 * reports `listening` over IPC, answers `reconcile` requests, follows the
 * sandbox clock's offsets, and closes when the test process disconnects.
 */
import type { TimeSource } from '@paymount/sandbox';
import { addRunOrder, notifies } from './fault-run';
import { postgresRoutes, type FromInstance, type InstanceConfig, type ToInstance } from './postgres-shop';
import { startSharedStoreInstance } from './shared-store-instance';
import { Shop, type SandboxView } from './shop';
import { testPool } from '../../../tools/postgres-pool';

const config = JSON.parse(process.env.PAYMOUNT_INSTANCE ?? 'null') as InstanceConfig | null;
if (config === null) throw new Error('PAYMOUNT_INSTANCE is not set');
const send = (message: FromInstance) => {
  if (!process.send) throw new Error('postgres-instance-process must be started with an IPC channel (fork)');
  // A reconcile the test process stopped waiting for (it disconnected to close the run) answers no one.
  if (process.connected) process.send(message);
};

let offsetMs = 0;
const clock = { now: () => Date.now() + offsetMs } satisfies TimeSource;
const sandbox: SandboxView = {
  clientOptions: () => ({ ...config.sandbox.client, clock }),
  gatewayId: config.sandbox.gatewayId,
  webhookSecret: config.sandbox.webhookSecret,
  clock,
};

const shop = new Shop();
for (let i = 0; i < config.orders; i += 1) addRunOrder(shop, i);
// After the restart test's crash every app reconnects its whole pool at once, and the server forks a backend for
// each: on a busy machine that takes seconds, and testPool's 2 s connect limit turned the apps' stores unavailable
// for the rest of the run. A connect is bounded still, so a server that is down fails a request within 10 s.
const pool = testPool(config.databaseUrl, { max: 20, connectionTimeoutMillis: 10_000 });
const app = await startSharedStoreInstance({
  sandbox,
  shop,
  adapter: config.adapter,
  notifies,
  ...(config.client ? { client: config.client } : {}),
  routes: postgresRoutes(pool, shop, config.client?.deadlineMs),
});

process.on('message', (message: ToInstance) => {
  if (message.kind === 'clock') offsetMs = message.offsetMs;
  if (message.kind === 'reconcile') {
    app.paymentRoutes.reconcile(message.options).then(
      (summary) => send({ kind: 'reconciled', id: message.id, summary }),
      (error: unknown) => send({ kind: 'reconciled', id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  }
});
process.on('disconnect', () => {
  void app
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
send({ kind: 'listening', routesUrl: app.routesUrl });
