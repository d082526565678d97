import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../../../tools/child-processes';
import { payOnHostedPage, payWithWallet } from '../../../tests/readmes/test/support/quick-start';
import { startOrderService, type OrderService } from '../../next/test/support/order-service';
import { appDir, startApp } from './support/start-app';

// The README's quick start, built into the app by the global setup (vite build), served by its production server
// with the sandbox switched on; the order store stays in this process, reached over HTTP.
let orderService: OrderService;
let app: Awaited<ReturnType<typeof startApp>>;

beforeAll(async () => {
  orderService = await startOrderService();
  app = await startApp({ PAYMOUNT_SANDBOX: '1', TEST_ORDERS_URL: orderService.url }, (origin) => ({ PUBLIC_URL: origin }));
});

afterAll(async () => {
  await app?.close();
  await orderService?.close();
});

/** The README's and the guide's files in the app: the errors of these, not of the app's own pages around them, are theirs. */
const README_FILES = /^(payments\.ts|src\/routes\/payments\/|src\/routes\/orders\/)/;

it("the quick start's files and the order page type-check under the start-basic template's tsconfig, with the generated route tree", async () => {
  const tsc = await run(process.execPath, [join(import.meta.dirname, '..', '..', '..', 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: appDir, timeoutMs: 120_000 });
  const diagnostics = `${tsc.stdout}${tsc.stderr}`.split('\n').filter((line) => README_FILES.test(line));
  expect(diagnostics).toEqual([]);
});

it("a hosted checkout and a wallet payment, each marked paid by the README's webhook handler", async () => {
  const paymentsUrl = `${app.origin}/payments`;
  orderService.orders.add('tss-hosted-1', 2599);
  const sandboxOrigin = await payOnHostedPage(paymentsUrl, 'tss-hosted-1', app.origin);
  expect((await orderService.orders.waitFor('tss-hosted-1', (order) => order.status === 'paid')).status).toBe('paid');

  orderService.orders.add('tss-wallet-1', 1250);
  await payWithWallet(paymentsUrl, 'tss-wallet-1', sandboxOrigin);
  expect((await orderService.orders.waitFor('tss-wallet-1', (order) => order.status === 'paid')).status).toBe('paid');
});
