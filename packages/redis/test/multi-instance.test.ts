import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createPaymentClient, signWebhook, type PaymentClient } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MerchantAppConfig } from './support/merchant-app';
import type { HandlerRun, InstanceMessage } from './support/merchant-instance';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { answerHeaders, readDelivery } from '../../../tools/webhook-forwarding';

const INSTANCES = 3;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const instanceScript = fileURLToPath(new URL('./support/merchant-instance.ts', import.meta.url));

interface Instance {
  child: ChildProcess;
  routesUrl: string;
}

/** Forks one merchant instance (TypeScript through tsx) and resolves once it listens. */
async function startInstance(config: MerchantAppConfig, messages: HandlerRun[]): Promise<Instance> {
  const child = fork(instanceScript, {
    cwd: packageDir,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PAYMOUNT_INSTANCE: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const routesUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`merchant instance exited with ${code} before listening`)));
    child.on('message', (message: InstanceMessage) => {
      if (message.kind === 'listening') resolve(message.routesUrl);
      else messages.push(message);
    });
  });
  return { child, routesUrl };
}

interface FanOut {
  deliveryId: string;
  answers: Array<{ status: number; body: string }>;
}

/**
 * The notifyUrl: posts every delivery, byte for byte with its signature
 * headers, to all instances at once, the worst a load balancer with retries
 * can do. Answers 200 only when every instance did, so the service retries
 * whenever one of them failed.
 */
async function startFanOut(targets: () => readonly string[], log: FanOut[]): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    void (async () => {
      const { body, headers } = await readDelivery(req);
      const answers = await Promise.all(
        targets().map(async (url) => {
          const response = await fetch(`${url}/webhook`, { method: 'POST', headers, body });
          return { status: response.status, body: await response.text(), headers: answerHeaders(response) };
        }),
      );
      log.push({ deliveryId: headers['x-client-request-id'] ?? '', answers });
      const answer = answers.find(({ status }) => status !== 200) ?? answers[0];
      res.writeHead(answer?.status ?? 200, answer?.headers).end();
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface PayAnswer {
  instance: number;
  status: number;
  body: { status?: string; alreadyPaid?: boolean; transactionRequestId?: string; error?: { code: string } };
}

describe.skipIf(redisSkipped())('three merchant instances in separate processes sharing one Redis', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let client: PaymentClient;
  let fanOut: { url: string; server: Server };
  const instances: Instance[] = [];
  const messages: HandlerRun[] = [];
  const fanOuts: FanOut[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [20, 40, 80, 160, 320, 640] });
    const config: MerchantAppConfig = {
      sandbox: {
        url: sandbox.url,
        apiKey: sandbox.apiKey,
        appId: sandbox.appId,
        merchantId: sandbox.merchantId,
        webhookSecret: sandbox.webhookSecret,
      },
      redis: { host: '127.0.0.1', port: redis.port },
      keyPrefix: 'multi:',
    };
    instances.push(...(await Promise.all(Array.from({ length: INSTANCES }, () => startInstance(config, messages)))));
    fanOut = await startFanOut(() => instances.map((instance) => instance.routesUrl), fanOuts);
    client = createPaymentClient(sandbox.clientOptions());
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all(
      instances.map(async ({ child }) => {
        const exited = once(child, 'exit');
        child.disconnect();
        await exited;
      }),
    );
    fanOut?.server.closeAllConnections();
    fanOut?.server.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('runs each event’s handler to success exactly once in total, through concurrent copies and retries', async () => {
    const amounts = [1250, 8888, 990, 4200, 8888, 15000];
    const payments = await Promise.all(
      amounts.map((orderAmount, index) =>
        client.directPayment({
          referenceOrderId: `multi-order-${index}`,
          description: 'Multi-instance order',
          amount: { orderAmount, priceCurrency: 'USD' },
          cardEncryptedData: sandbox.mintWalletToken(),
          notifyUrl: `${fanOut.url}/webhook`,
        }),
      ),
    );
    await sandbox.waitForDeliveries(30_000);

    const deliveries = sandbox.deliveries();
    expect(deliveries).toHaveLength(amounts.length);
    for (const delivery of deliveries) {
      expect(delivery.state).toBe('delivered');
      // Each instance fails its first run of a transaction, so every delivery needed retries.
      expect(delivery.attempts.length).toBeGreaterThan(1);
      // The fan-out passes the route marker back: the sandbox knows paymount's route answered each attempt.
      expect(delivery.attempts.map((attempt) => attempt.paymountRoute)).toEqual(delivery.attempts.map(() => 'webhook'));
    }
    // Every copy reached all three instances; some found another instance handling the event (409, retry
    // later), and the last attempt of each found it done (200 duplicate) everywhere but where it ran.
    expect(fanOuts.every((fan) => fan.answers.length === INSTANCES)).toBe(true);
    const answers = fanOuts.flatMap((fan) => fan.answers);
    expect(answers.some((answer) => answer.status === 409 && answer.body.includes('WEBHOOK_IN_PROGRESS'))).toBe(true);
    expect(answers.some((answer) => answer.body.includes('"duplicate":true'))).toBe(true);

    const effects = messages.filter((message) => message.kind === 'effect');
    for (const payment of payments) {
      const forTransaction = effects.filter((effect) => effect.transactionId === payment.transactionId);
      expect(forTransaction).toHaveLength(1);
      expect(forTransaction[0]?.type).toBe(payment.status === 'succeeded' ? 'payment.succeeded' : 'payment.failed');
    }
    expect(effects).toHaveLength(amounts.length);
    // The claim moved between processes: more than one instance ran handlers.
    expect(new Set(messages.map((message) => message.pid)).size).toBeGreaterThan(1);
  });

  it('50 concurrent wallet payments of one order, spread over the three instances, charge it exactly once', async () => {
    const orderId = 'shared-order-1';
    // The winning payment is held at the service, so every other request arrives while it is in flight.
    sandbox.injectFault({ kind: 'delay', path: '/v1/checkout/sale', delayMs: 2_000 });
    const pay = async (instance: number): Promise<PayAnswer> => {
      const response = await fetch(`${instances[instance]!.routesUrl}/wallet/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, token: sandbox.mintWalletToken() }),
      });
      return { instance, status: response.status, body: (await response.json()) as PayAnswer['body'] };
    };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => pay(i % INSTANCES)));

    const charged = sandbox.charges().filter((charge) => charge.referenceOrderId === orderId);
    expect(charged.map((charge) => charge.transactionStatus)).toEqual(['S']);
    const paid = answers.filter((answer) => answer.status === 200);
    expect(paid).toHaveLength(1);
    expect(paid[0]?.body).toMatchObject({ status: 'succeeded', transactionRequestId: charged[0]?.transactionRequestId });
    const refused = answers.filter((answer) => answer.status === 409);
    expect(refused).toHaveLength(49);
    expect(refused.every((answer) => answer.body.error?.code === 'PAYMENT_IN_PROGRESS')).toBe(true);
    // The lock held across processes: every instance refused some.
    expect(new Set(refused.map((answer) => answer.instance)).size).toBe(INSTANCES);

    // Asked again, one after the other, every instance answers it paid, and nothing more is charged.
    for (let instance = 0; instance < INSTANCES; instance += 1) {
      expect(await pay(instance)).toMatchObject({ status: 200, body: { status: 'succeeded', alreadyPaid: true } });
    }
    expect(sandbox.charges().filter((charge) => charge.referenceOrderId === orderId)).toHaveLength(1);
  });

  it('a re-signed redelivery of a handled event, under a new delivery id, runs nothing on any instance', async () => {
    const handled = sandbox.deliveries()[0];
    expect(handled).toBeDefined();
    const before = messages.length;
    const { body, headers } = signWebhook({ rawBody: handled!.body, secret: sandbox.webhookSecret, deliveryId: 'redelivery-1' });
    const post = async (routesUrl: string) => {
      const response = await fetch(`${routesUrl}/webhook`, { method: 'POST', headers, body });
      return { status: response.status, body: (await response.json()) as { duplicate?: boolean; error?: { code: string } } };
    };
    const duplicate = { status: 200, body: { received: true, duplicate: true } };

    // At once, on every instance: the event's key is done, so each answers duplicate and writes nothing.
    const concurrent = await Promise.all(instances.map(({ routesUrl }) => post(routesUrl)));
    expect(concurrent).toEqual(instances.map(() => duplicate));
    // Its retry, on any instance: a duplicate everywhere.
    for (const { routesUrl } of instances) expect(await post(routesUrl)).toEqual(duplicate);
    expect(messages.length).toBe(before);
  });
});
