/**
 * A merchant instance in its own process whose handler never settles, for
 * the dead-claimant test: it holds its event's claim, renewed by the routes'
 * heartbeat, until the test kills the process. Configured by
 * PAYMOUNT_INSTANCE (JSON MerchantAppConfig) and PAYMOUNT_PROCESSING_TTL_MS;
 * reports `listening`, then `handling` once its handler runs.
 */
import { startMerchantApp, type MerchantAppConfig } from './merchant-app';

export type ClaimHolderMessage = { kind: 'listening'; routesUrl: string } | { kind: 'handling'; transactionId: string };

const config = JSON.parse(process.env.PAYMOUNT_INSTANCE ?? 'null') as MerchantAppConfig | null;
if (config === null) throw new Error('PAYMOUNT_INSTANCE is not set');
if (!process.send) throw new Error('claim-holder must be started with an IPC channel (fork)');
const send = process.send.bind(process);

const app = await startMerchantApp(
  config,
  (event) =>
    new Promise<void>(() => {
      send({ kind: 'handling', transactionId: event.transactionId ?? '-' } satisfies ClaimHolderMessage);
    }),
  { processingTtlMs: Number(process.env.PAYMOUNT_PROCESSING_TTL_MS) },
);
send({ kind: 'listening', routesUrl: app.routesUrl } satisfies ClaimHolderMessage);
