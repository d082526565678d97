/**
 * A merchant app instance in its own process, for the multi-instance test.
 * Configured by the PAYMOUNT_INSTANCE environment variable (JSON
 * MerchantAppConfig); reports over IPC: `listening`, then one `attempt` per
 * handler run and one `effect` per handler run that succeeded.
 *
 * Its handler fails the first time this instance sees a transaction, so that
 * deliveries are retried and the claim passes between instances.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startMerchantApp, type MerchantAppConfig } from './merchant-app';

export interface HandlerRun {
  kind: 'attempt' | 'effect';
  pid: number;
  transactionId: string;
  type: string;
  deliveryId: string;
}
export type InstanceMessage = { kind: 'listening'; routesUrl: string } | HandlerRun;

function report(message: InstanceMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) return reject(new Error('merchant-instance must be started with an IPC channel (fork)'));
    process.send(message, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

const config = JSON.parse(process.env.PAYMOUNT_INSTANCE ?? 'null') as MerchantAppConfig | null;
if (config === null) throw new Error('PAYMOUNT_INSTANCE is not set');

const seen = new Set<string>();
const app = await startMerchantApp(config, async (event) => {
  const transactionId = event.transactionId ?? '-';
  const fields = { pid: process.pid, transactionId, type: event.type, deliveryId: event.deliveryId };
  await report({ kind: 'attempt', ...fields });
  // Long enough that copies of a delivery sent to the other instances arrive while this one holds the claim.
  await sleep(30);
  if (!seen.has(transactionId)) {
    seen.add(transactionId);
    throw new Error(`first run of ${transactionId} on this instance fails on purpose`);
  }
  await report({ kind: 'effect', ...fields });
});

process.on('disconnect', () => {
  void app.close().finally(() => process.exit(0));
});
await report({ kind: 'listening', routesUrl: app.routesUrl });
