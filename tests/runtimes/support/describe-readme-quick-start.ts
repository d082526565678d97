import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payOnHostedPage, payWithWallet } from '../../readmes/test/support/quick-start';
import { freePort } from '../../../tools/free-port';
import { writeHonoReadmeApp, type HonoReadmeApp } from './hono-readme-app';

/** The README app a runtime serves at `origin`; `close` stops it. */
export interface LaunchedApp {
  /** What the runtime printed (the routes log there), when the runtime is a process of its own. */
  output?(): string;
  close(): Promise<void>;
}

/**
 * Starts the README's app on a runtime: `env` holds the settings
 * payment-options.ts reads (the sandbox's, and the app's own address), `port`
 * where it must listen on 127.0.0.1. Resolves once it answers.
 */
export type LaunchReadmeApp = (app: HonoReadmeApp, settings: { env: Record<string, string>; port: number; sandbox: Sandbox }) => Promise<LaunchedApp>;

/** The environment the README's payment-options.ts reads, pointing at `sandbox`, the app at `publicUrl`. */
function readmeEnv(sandbox: Sandbox, publicUrl: string): Record<string, string> {
  return {
    PAYMENT_API_KEY: sandbox.apiKey,
    PAYMENT_BASE_URL: sandbox.url,
    PAYMENT_APP_ID: sandbox.appId,
    PAYMENT_MERCHANT_ID: sandbox.merchantId,
    PAYMENT_GATEWAY_ID: sandbox.gatewayId,
    PAYMENT_WEBHOOK_SECRET: sandbox.webhookSecret,
    PUBLIC_URL: publicUrl,
    PAYMOUNT_LOCAL_DEVELOPMENT: '1',
  };
}

/**
 * The hono README's Workers, Bun and Deno quick starts, written out as the
 * README has them and served by the runtime `launch` starts, against the
 * sandbox on Node: a checkout paid on the sandbox's hosted page and a wallet
 * payment, each marked paid by the README's own webhook handler in that
 * runtime. The test adds the orders and reads them through
 * flows/readme-harness.ts, in the app's own order store.
 */
export function describeReadmeQuickStart(runtime: string, launch: LaunchReadmeApp): void {
  describe(`hono README quick start on ${runtime}, against the sandbox on Node`, () => {
    let sandbox: Sandbox | undefined;
    let app: LaunchedApp | undefined;
    let origin: string;
    let sandboxOrigin: string | undefined;
    /** Order ids must be plain: letters, digits, `-`. */
    const slug = runtime.toLowerCase().replace(/[^a-z0-9]+/g, '-');

    beforeAll(async () => {
      const readmeApp = writeHonoReadmeApp();
      sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400], log: false });
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      app = await launch(readmeApp, { env: readmeEnv(sandbox, origin), port, sandbox });
    });
    afterAll(async () => {
      // What the app logged (a refusal, a failed handler) in the runtime's own words.
      const printed = app?.output?.().trim();
      // eslint-disable-next-line no-console -- the runtime's own output, for the test output
      if (printed) console.log(`${runtime} printed:\n${printed}`);
      await app?.close();
      await sandbox?.close();
    });

    const running = () => {
      if (!sandbox || !app) throw new Error(`the README app did not start on ${runtime}`);
      return sandbox;
    };
    const addOrder = async (id: string, totalCents: number) => {
      const added = await fetch(`${origin}/test/orders`, { method: 'POST', body: JSON.stringify({ id, totalCents }) });
      expect(added.status).toBe(201);
    };
    /** The order once the README's handlers changed it and `status` holds, read in the app's own store. */
    const orderOnceHandled = async (id: string, status: string) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const order = (await (await fetch(`${origin}/test/orders/${id}`)).json()) as { status?: string; changes?: string[]; transactionId?: string };
        if (order.status === status || Date.now() > deadline) return order;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const deliveriesOf = (id: string) =>
      running()
        .deliveries()
        .filter((delivery) => delivery.payload['referenceOrderId'] === id)
        .map((delivery) => [delivery.event, delivery.state, delivery.attempts.at(-1)?.status]);

    it("takes a checkout paid on the sandbox's hosted page; the webhook reaches the app, and its handler marks the order paid", async () => {
      running();
      const id = `hosted-${slug}`;
      await addOrder(id, 2500);
      sandboxOrigin = await payOnHostedPage(`${origin}/payments`, id, origin);
      const charges = running()
        .charges()
        .filter((charge) => charge.referenceOrderId === id);
      expect(charges.map((charge) => [charge.channel, charge.transactionStatus, charge.payableTotal])).toEqual([['hosted-checkout', 'S', 2500]]);
      expect(await orderOnceHandled(id, 'paid')).toMatchObject({ status: 'paid', changes: ['paid'], transactionId: charges[0]?.transactionId });
      expect(deliveriesOf(id)).toEqual([['payment.succeeded', 'delivered', 200]]);
      const status = await fetch(`${origin}/payments/status?orderId=${id}`);
      expect(await status.json()).toMatchObject({ orderId: id, status: 'succeeded', payable: false });
    });

    it('takes a wallet payment, and its webhook handler marks the order paid', async () => {
      if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
      const id = `wallet-${slug}`;
      await addOrder(id, 1999);
      await payWithWallet(`${origin}/payments`, id, sandboxOrigin);
      expect(await orderOnceHandled(id, 'paid')).toMatchObject({ status: 'paid', changes: ['paid'] });
      expect(deliveriesOf(id)).toEqual([['payment.succeeded', 'delivered', 200]]);
    });
  });
}
