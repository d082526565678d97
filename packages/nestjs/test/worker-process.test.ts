import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebhookQueue, jobIdOf, type WebhookQueue } from '@paymount/bullmq';
import { dedupeKeyOf, signWebhook, verifyWebhook } from '@paymount/core';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import type { QueuedAppSettings } from './queued-app';
import type { QueuedProcessConfig } from './queued-app-process';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const script = fileURLToPath(new URL('./queued-app-process.ts', import.meta.url));

interface NestProcess {
  child: ChildProcess;
  /** The HTTP app's origin; undefined for the worker-only process. */
  url: string | undefined;
}

/** Forks one process of the deployment (TypeScript through tsx) and resolves once it is ready. */
async function startProcess(config: QueuedProcessConfig): Promise<NestProcess> {
  const child = fork(script, {
    cwd: packageDir,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PAYMOUNT_NEST_APP: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ url?: string }>((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`the ${config.role} process exited (${code ?? signal}) before it was ready`)));
    child.once('message', resolve);
  });
  return { child, url: ready.url };
}

async function stopProcess({ child }: NestProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.kill('SIGTERM');
  const [code, signal] = await exited;
  return { code, signal };
}

describe.skipIf(redisSkipped())('a worker-only Nest process (createApplicationContext) beside the HTTP app process', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let queue: WebhookQueue;
  let http: NestProcess;
  let worker: NestProcess;
  const dir = mkdtempSync(join(tmpdir(), 'paymount-nest-workers-'));
  const records = join(dir, 'records.txt');
  const recorded = () => {
    try {
      return readFileSync(records, 'utf8').trim().split('\n');
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100], log: false });
    const settings: QueuedAppSettings = {
      redisUrl: redis.url,
      queueName: 'nest-processes',
      client: { apiKey: sandbox.apiKey, baseUrl: sandbox.url, appId: sandbox.appId, merchantId: sandbox.merchantId, localDevelopment: true },
      webhookSecret: sandbox.webhookSecret,
      workers: true,
    };
    [http, worker] = await Promise.all([
      startProcess({ role: 'http', settings: { ...settings, workers: false }, records }),
      startProcess({ role: 'worker', settings, records }),
    ]);
    queue = createWebhookQueue({ connection: redis.url, name: settings.queueName });
  });
  afterAll(async () => {
    await Promise.all([http, worker].filter(Boolean).map(stopProcess));
    await queue?.close();
    await sandbox?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function keyOf(delivery: Delivery): Promise<string> {
    const { body, headers } = signWebhook({ rawBody: delivery.body, secret: sandbox.webhookSecret, deliveryId: 'key-of' });
    return dedupeKeyOf(await verifyWebhook({ rawBody: body, headers, secret: sandbox.webhookSecret }));
  }

  it(
    'runs the @OnPaymentEvent method of an event delivered twice to the HTTP app once, and stops cleanly on SIGTERM',
    async () => {
      const forwardTo = `${http.url}/payments/webhook`;
      const delivery = await sandbox.trigger('payment.succeeded', { forwardTo });
      expect(delivery.attempts).toEqual([expect.objectContaining({ status: 200, answer: '{"received":true,"queued":true}' })]);
      const transactionId = String(delivery.payload['transactionId']);
      const jobId = jobIdOf(await keyOf(delivery));

      await expect.poll(() => queue.bullQueue.getJobState(jobId), { timeout: 20_000 }).toBe('completed');
      // The service delivers it again: answered 200, and not run again.
      const again = await sandbox.resend(delivery.deliveryId);
      expect(again.attempts).toEqual([expect.objectContaining({ status: 200 })]);
      await expect.poll(() => queue.depth(), { timeout: 10_000 }).toBe(0);
      expect(recorded()).toEqual([`worker ${worker.child.pid} ${transactionId}`]);

      // enableShutdownHooks: SIGTERM closes the application context (workers first), then the process ends by the signal.
      expect(await stopProcess(worker)).toEqual({ code: null, signal: 'SIGTERM' });
    },
    60_000,
  );
});
