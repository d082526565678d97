import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { payOnHostedPage, payWithWallet } from '../../../tests/readmes/test/support/quick-start';
import type { Order } from '../../../tests/readmes/context/orders';
import { startNitroServer, type NitroServer } from './support/nitro-server';

// The README's quick start (nuxt.config.ts and server/routes/payments/[...].ts, as written) in the test app, built by
// `nuxt build` and served by `node .output/server/index.mjs` with its settings in the NUXT_ variables, as in
// production, here pointing at a sandbox. The app's test route /test-orders/<id> adds orders to its store and reads them.
let sandbox: Sandbox;
let server: NitroServer;
beforeAll(async () => {
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [50, 100], log: false });
  const settings = sandbox.clientOptions();
  server = await startNitroServer({
    NUXT_PAYMENT_API_KEY: settings.apiKey,
    NUXT_PAYMENT_BASE_URL: settings.baseUrl,
    NUXT_PAYMENT_APP_ID: settings.appId,
    NUXT_PAYMENT_MERCHANT_ID: settings.merchantId,
    NUXT_PAYMENT_GATEWAY_ID: sandbox.gatewayId,
    NUXT_PAYMENT_WEBHOOK_SECRET: sandbox.webhookSecret,
    NUXT_PAYMENT_LOCAL_DEVELOPMENT: 'true',
  }, { atOrigin: (origin) => ({ NUXT_SHOP_URL: origin }) });
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

let orderCount = 0;
/** A new order of the shop, of `totalCents`. */
async function addOrder(totalCents: number): Promise<string> {
  const id = `nuxt${Date.now()}${orderCount++}`;
  const res = await fetch(`${server.origin}/test-orders/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ totalCents }) });
  expect(res.status).toBe(200);
  return id;
}

/** The order once the README's webhook handlers have made it `status` (a limit for a hang, never a verdict on speed). */
async function orderOnce(id: string, status: Order['status']): Promise<Order> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const order = (await (await fetch(`${server.origin}/test-orders/${id}`)).json()) as Order;
    if (order.status === status) return order;
    if (Date.now() > deadline) throw new Error(`order ${id} is still ${JSON.stringify(order)}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('an order paid on the hosted checkout is marked paid by the README’s payment.succeeded handler', async () => {
  const id = await addOrder(2_500);
  await payOnHostedPage(`${server.origin}/payments`, id, server.origin);
  expect(await orderOnce(id, 'paid')).toMatchObject({ id, status: 'paid', transactionId: expect.any(String) as string });
});

it('an order paid with a wallet token is marked paid, and a declined one failed and still payable', async () => {
  const paid = await addOrder(1_200);
  await payWithWallet(`${server.origin}/payments`, paid, sandbox.url);
  expect(await orderOnce(paid, 'paid')).toMatchObject({ status: 'paid' });
  const declined = await addOrder(900);
  await payWithWallet(`${server.origin}/payments`, declined, sandbox.url, 'failed');
  await orderOnce(declined, 'failed');
  await payWithWallet(`${server.origin}/payments`, declined, sandbox.url);
  expect(await orderOnce(declined, 'paid')).toMatchObject({ status: 'paid' });
});
