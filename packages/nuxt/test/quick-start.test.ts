import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { payOnHostedPage, payWithWallet } from '../../../tests/readmes/test/support/quick-start';
import type { NitroServer } from './support/nitro-server';
import { addOrder, orderOnce, startShop } from './support/shop';

// The README's quick start (nuxt.config.ts and server/routes/payments/[...].ts, as written) in the test app, built by
// `nuxt build` and served by `node .output/server/index.mjs` with its settings in the NUXT_ variables, as in
// production, here pointing at a sandbox. The app's test route /test-orders/<id> adds orders to its store and reads them.
let sandbox: Sandbox;
let server: NitroServer;
beforeAll(async () => {
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [50, 100], log: false });
  server = await startShop(sandbox);
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

it('an order paid on the hosted checkout is marked paid by the README’s payment.succeeded handler', async () => {
  const id = await addOrder(server, 2_500);
  await payOnHostedPage(`${server.origin}/payments`, id, server.origin);
  expect(await orderOnce(server, id, 'paid')).toMatchObject({ id, status: 'paid', transactionId: expect.any(String) as string });
});

it('an order paid with a wallet token is marked paid, and a declined one failed and still payable', async () => {
  const paid = await addOrder(server, 1_200);
  await payWithWallet(`${server.origin}/payments`, paid, sandbox.url);
  expect(await orderOnce(server, paid, 'paid')).toMatchObject({ status: 'paid' });
  const declined = await addOrder(server, 900);
  await payWithWallet(`${server.origin}/payments`, declined, sandbox.url, 'failed');
  await orderOnce(server, declined, 'failed');
  await payWithWallet(`${server.origin}/payments`, declined, sandbox.url);
  expect(await orderOnce(server, declined, 'paid')).toMatchObject({ status: 'paid' });
});
