import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { signWebhook, type PaymentEvent } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimHolderMessage } from './support/claim-holder';
import { startMerchantApp, type MerchantApp, type MerchantAppConfig } from './support/merchant-app';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';

/** Renewed every third of it (core's heartbeat): a renewal may come 2 s late, on a busy machine, and still hold the claim. */
const PROCESSING_TTL_MS = 3_000;
/** How late after its TTL a freed claim may be taken over: the survivor's polls and a busy machine's pauses. */
const TAKEOVER_SLACK_MS = 2_000;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const holderScript = fileURLToPath(new URL('./support/claim-holder.ts', import.meta.url));

/** Forks the instance whose handler never settles; resolves once it listens. */
async function startHolder(config: MerchantAppConfig, handling: string[]): Promise<{ child: ChildProcess; routesUrl: string }> {
  const child = fork(holderScript, {
    cwd: packageDir,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PAYMOUNT_INSTANCE: JSON.stringify(config), PAYMOUNT_PROCESSING_TTL_MS: String(PROCESSING_TTL_MS) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const routesUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`claim holder exited with ${code} before listening`)));
    child.on('message', (message: ClaimHolderMessage) => {
      if (message.kind === 'listening') resolve(message.routesUrl);
      else handling.push(message.transactionId);
    });
  });
  return { child, routesUrl };
}

describe.skipIf(redisSkipped())('a claim whose holder died is taken over after the claim TTL, never before', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let holder: { child: ChildProcess; routesUrl: string };
  let survivor: MerchantApp;
  const handling: string[] = [];
  const survivorRuns: PaymentEvent[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true });
    const config: MerchantAppConfig = {
      sandbox: { url: sandbox.url, apiKey: sandbox.apiKey, appId: sandbox.appId, merchantId: sandbox.merchantId, webhookSecret: sandbox.webhookSecret },
      redis: { host: '127.0.0.1', port: redis.port },
      keyPrefix: 'dead:',
    };
    holder = await startHolder(config, handling);
    survivor = await startMerchantApp(config, (event) => void survivorRuns.push(event), { processingTtlMs: PROCESSING_TTL_MS });
  });

  afterAll(async () => {
    if (holder?.child.exitCode === null && holder.child.signalCode === null) {
      const exited = once(holder.child, 'exit');
      holder.child.kill('SIGKILL');
      await exited;
    }
    await survivor?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('while the holder lives its handler keeps the event (two TTLs); killed with SIGKILL, its claim frees within one TTL and the survivor runs the event', async () => {
    const { body, headers } = signWebhook({
      payload: {
        notifyTime: new Date().toISOString(),
        transactionId: 'T-dead-1',
        transactionRequestId: 'req-T-dead-1',
        transactionType: 'SALE',
        transactionStatus: 'S',
        referenceOrderId: 'shared-order-dead',
        amount: { orderAmount: 1250, priceCurrency: 'USD' },
      },
      secret: sandbox.webhookSecret,
    });
    const post = async (routesUrl: string) => (await fetch(`${routesUrl}/webhook`, { method: 'POST', headers, body })).status;

    let holderAnswer: number | string | undefined;
    post(holder.routesUrl).then(
      (status) => (holderAnswer = status),
      (error: Error) => (holderAnswer = error.message),
    );
    while (handling.length === 0) {
      // Its handler never settles, so an answer before the handler ran is a refusal: a failure to name, not a wait to the test's limit.
      if (holderAnswer !== undefined) throw new Error(`the claim holder answered ${holderAnswer} before its handler ran`);
      await sleep(10);
    }

    const whileAlive: number[] = [];
    for (let sent = 0; sent < 10; sent += 1) {
      await sleep(PROCESSING_TTL_MS / 5);
      whileAlive.push(await post(survivor.routesUrl));
    }
    expect(whileAlive).toEqual(Array.from({ length: 10 }, () => 409));
    expect(survivorRuns).toHaveLength(0);

    const killed = once(holder.child, 'exit');
    holder.child.kill('SIGKILL');
    await killed;
    const killedAt = Date.now();
    let status = 409;
    while (status === 409 && Date.now() - killedAt < 5 * PROCESSING_TTL_MS) {
      await sleep(20);
      status = await post(survivor.routesUrl);
    }
    const takenOverAfterMs = Date.now() - killedAt;
    console.info(`dead claimant: claim taken over ${takenOverAfterMs} ms after SIGKILL (claim TTL ${PROCESSING_TTL_MS} ms)`);
    expect(status).toBe(200);
    expect(takenOverAfterMs).toBeLessThanOrEqual(PROCESSING_TTL_MS + TAKEOVER_SLACK_MS);
    expect(survivorRuns.map((event) => event.transactionId)).toEqual(['T-dead-1']);
    expect(await post(survivor.routesUrl)).toBe(200);
    expect(survivorRuns).toHaveLength(1);
  });
});
