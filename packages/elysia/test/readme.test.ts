import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binary, startServer, type RunningServer } from '../../../tools/child-processes';
import { freePort } from '../../../tools/free-port';
import { payOnHostedPage, payWithWallet } from '../../../tests/readmes/test/support/quick-start';
import { compileReadmeApp, readmeAppDir, writeReadmeApp } from './support/readme-app';

beforeAll(() => writeReadmeApp());

it("the README's quick start compiles under the tsconfig `bun init` (Bun 1.4.5) writes", () => {
  expect(compileReadmeApp()).toEqual([]);
});

describe('the README quick start, run by `bun run index.ts` against the sandbox on Node', () => {
  let sandbox: Sandbox;
  let app: RunningServer | undefined;
  let origin: string;
  let harness: string;
  let sandboxOrigin: string | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400], log: false });
    const [port, harnessPort] = [await freePort(), await freePort()];
    origin = `http://127.0.0.1:${port}`;
    harness = `http://127.0.0.1:${harnessPort}/test/orders`;
    app = await startServer(binary('bun'), ['run', 'harness.ts'], {
      cwd: readmeAppDir,
      env: {
        PAYMENT_API_KEY: sandbox.apiKey,
        PAYMENT_BASE_URL: sandbox.url,
        PAYMENT_APP_ID: sandbox.appId,
        PAYMENT_MERCHANT_ID: sandbox.merchantId,
        PAYMENT_GATEWAY_ID: sandbox.gatewayId,
        PAYMENT_WEBHOOK_SECRET: sandbox.webhookSecret,
        PUBLIC_URL: origin,
        PAYMOUNT_LOCAL_DEVELOPMENT: '1',
        PORT: String(port),
        HARNESS_PORT: String(harnessPort),
      },
      readyUrl: `${harness}/none`,
      timeoutMs: 60_000,
    });
  });
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
  });

  const addOrder = async (id: string, totalCents: number) => {
    expect((await fetch(harness, { method: 'POST', body: JSON.stringify({ id, totalCents }) })).status).toBe(201);
  };
  /** The order once the README's handlers changed it to `status`, read in the app's own store (its state at the deadline otherwise). */
  const orderOnceHandled = async (id: string, status: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const order = (await (await fetch(`${harness}/${id}`)).json()) as { status?: string };
      if (order.status === status || Date.now() > deadline) return order;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const deliveriesOf = (id: string) =>
    sandbox
      .deliveries()
      .filter((delivery) => delivery.payload['referenceOrderId'] === id)
      .map((delivery) => [delivery.event, delivery.state, delivery.attempts.at(-1)?.status]);

  it("takes a checkout paid on the sandbox's hosted page; the webhook reaches the app, and its handler marks the order paid", async () => {
    await addOrder('hosted-elysia', 2500);
    sandboxOrigin = await payOnHostedPage(`${origin}/payments`, 'hosted-elysia', origin);
    const charges = sandbox.charges().filter((charge) => charge.referenceOrderId === 'hosted-elysia');
    expect(charges.map((charge) => [charge.channel, charge.transactionStatus, charge.payableTotal])).toEqual([['hosted-checkout', 'S', 2500]]);
    expect(await orderOnceHandled('hosted-elysia', 'paid')).toMatchObject({ status: 'paid', changes: ['paid'], transactionId: charges[0]?.transactionId });
    expect(deliveriesOf('hosted-elysia')).toEqual([['payment.succeeded', 'delivered', 200]]);
    expect(await (await fetch(`${origin}/orders/hosted-elysia`)).text()).toBe('Order hosted-elysia');
  });

  it('takes a wallet payment, and its webhook handler marks the order paid', async () => {
    if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
    await addOrder('wallet-elysia', 1999);
    await payWithWallet(`${origin}/payments`, 'wallet-elysia', sandboxOrigin);
    expect(await orderOnceHandled('wallet-elysia', 'paid')).toMatchObject({ status: 'paid', changes: ['paid'] });
    expect(deliveriesOf('wallet-elysia')).toEqual([['payment.succeeded', 'delivered', 200]]);
  });

  it("ends on SIGTERM as the README's handler has it: the app stops, its routes close, and nothing keeps Bun running", async () => {
    const running = app!;
    app = undefined;
    // close() sends SIGTERM and resolves once the process has exited; a timer or server left open would keep it running.
    await running.close();
    await expect(fetch(`${origin}/orders/after`)).rejects.toThrow();
  });
});
