import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../tools/free-port';
import { binary, startServer, type RunningServer } from '../../../tools/child-processes';
import type { MerchantAppConfig } from './deno/merchant-app-config';

/*
 * The merchant's app runs in Deno (test/deno/merchant-app.ts) with the
 * permissions the README names, its routes and stores made afresh for every
 * request as fresh isolates make them; the service is the sandbox on Node.
 * DENO_DEPLOYMENT_ID is set (and readable), so core takes the app for one on
 * Deno Deploy, where each request may land in a fresh isolate: the routes
 * warn there about memory stores, so the warning's absence means something.
 */
const APP_SCRIPT = fileURLToPath(new URL('./deno/merchant-app.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const ISOLATE_WARNING = 'in-memory stores protect nothing across requests';
const THROW_ONCE_ORDER = 'kv-throws-once';

interface RunningApp {
  url: string;
  server: RunningServer;
  folder: string;
}

async function startApp(sandbox: Sandbox, stores: MerchantAppConfig['stores']): Promise<RunningApp> {
  const folder = await mkdtemp(join(tmpdir(), 'paymount-deno-kv-'));
  const port = await freePort();
  const order = (referenceOrderId: string, orderAmount: number) => ({ referenceOrderId, amount: { orderAmount, priceCurrency: 'USD' }, description: 'A teapot' });
  const config: MerchantAppConfig = {
    port,
    kvPath: join(folder, 'kv.sqlite3'),
    stores,
    service: {
      client: { apiKey: sandbox.apiKey, baseUrl: sandbox.url, appId: sandbox.appId, merchantId: sandbox.merchantId },
      webhookSecret: sandbox.webhookSecret,
      gatewayId: sandbox.gatewayId,
    },
    shop: { 'kv-wallet': order('kv-wallet', 1999), 'kv-checkout': order('kv-checkout', 2500) },
    throwOnceOrder: THROW_ONCE_ORDER,
  };
  const args = [
    'run',
    '--unstable-kv',
    '--allow-net=127.0.0.1',
    `--allow-read=${folder}`,
    `--allow-write=${folder}`,
    '--allow-env=DENO_DEPLOYMENT_ID',
    '--no-prompt',
    '--no-lock',
    APP_SCRIPT,
    JSON.stringify(config),
  ];
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(binary('deno'), args, { cwd: PACKAGE_DIR, env: { DENO_DEPLOYMENT_ID: 'paymount-deno-kv-test' }, readyUrl: `${url}/ready`, timeoutMs: 60_000 });
  return { url, server, folder };
}

async function stopApp(app: RunningApp | undefined): Promise<void> {
  await app?.server.close();
  if (app) await rm(app.folder, { recursive: true, force: true });
}

const post = async (url: string, body: unknown) => {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code?: string } } };
};

const effectsOf = async (app: RunningApp, transactionId: unknown) =>
  ((await (await fetch(`${app.url}/effects?transactionId=${String(transactionId)}`)).json()) as { count: number }).count;

/** The signed event of one payment, delivered by the service, then twice more (same bytes, fresh delivery ids). */
async function deliveredThreeTimes(sandbox: Sandbox, app: RunningApp, referenceOrderId: string): Promise<Delivery[]> {
  const first = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.url}/payments/webhook`, referenceOrderId });
  return [first, await sandbox.resend(first.deliveryId), await sandbox.resend(first.deliveryId)];
}

/** A sandbox and the merchant's app on it, started before the enclosing block's tests and stopped after them. */
function startedForTheseTests(stores: MerchantAppConfig['stores']): { sandbox: Sandbox; app: RunningApp } {
  const running = {} as { sandbox: Sandbox; app: RunningApp };
  beforeAll(async () => {
    running.sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400, 800], log: () => {} });
    running.app = await startApp(running.sandbox, stores);
  });
  afterAll(async () => {
    await stopApp(running.app);
    await running.sandbox?.close();
  });
  return running;
}

describe('on Deno, routes made afresh for every request with denoKvStores on one KV', () => {
  const running = startedForTheseTests('kv');

  it('one signed webhook delivered three times runs its handler once', async () => {
    const { sandbox, app } = running;
    const deliveries = await deliveredThreeTimes(sandbox, app, 'kv-webhook');
    expect(deliveries.map((delivery) => delivery.state)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(deliveries.slice(1).map((delivery) => JSON.parse(delivery.attempts.at(-1)?.answer ?? '{}'))).toEqual([
      { received: true, duplicate: true },
      { received: true, duplicate: true },
    ]);
    expect(await effectsOf(app, deliveries[0]?.payload.transactionId)).toBe(1);
  });

  it('a paid order is charged once: a second wallet payment charges nothing, a checkout of it is refused (409)', async () => {
    const { sandbox, app } = running;
    const first = await post(`${app.url}/payments/wallet/pay`, { orderId: 'kv-wallet', token: sandbox.mintWalletToken() });
    expect(first).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    const second = await post(`${app.url}/payments/wallet/pay`, { orderId: 'kv-wallet', token: sandbox.mintWalletToken() });
    expect(second).toMatchObject({ status: 200, body: { status: 'succeeded', alreadyPaid: true, transactionId: first.body.transactionId } });
    const checkout = await post(`${app.url}/payments/checkout`, { orderId: 'kv-wallet' });
    expect(checkout).toMatchObject({ status: 409, body: { error: { code: 'ORDER_ALREADY_PAID' } } });
    expect(sandbox.charges().filter((charge) => charge.referenceOrderId === 'kv-wallet')).toHaveLength(1);
  });

  it('20 concurrent checkouts of one order make one checkout session', async () => {
    const { sandbox, app } = running;
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(`${app.url}/payments/checkout`, { orderId: 'kv-checkout' })));
    const data = (await (await fetch(`${sandbox.dashboardUrl}/data?orderId=kv-checkout`)).json()) as { snapshot: { sessions: { sessionId: string }[] } };
    expect(data.snapshot.sessions).toHaveLength(1);
    const opened = answers.filter((answer) => answer.status === 200 || answer.status === 201);
    expect(opened.length).toBeGreaterThanOrEqual(1);
    expect(new Set(opened.map((answer) => answer.body.checkoutUrl)).size).toBe(1);
    // The others were turned away while the session was being opened, and sent nothing.
    for (const answer of answers.filter((a) => !opened.includes(a))) expect(answer).toMatchObject({ status: 409, body: { error: { code: 'PAYMENT_IN_PROGRESS' } } });
  });

  it('an effect survives a handler that throws after writing: rolled back, then written once by the retry', async () => {
    const { sandbox, app } = running;
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.url}/payments/webhook`, referenceOrderId: THROW_ONCE_ORDER });
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    expect(await effectsOf(app, delivery.payload.transactionId)).toBe(1);
  });

  it('the routes say nothing about in-memory stores', async () => {
    const { app } = running;
    expect((await (await fetch(`${app.url}/warnings`)).json()) as string[]).toEqual([]);
  });
});

// The same app with paymount's in-memory defaults: what the stores above prevent happens, so the tests above can fail.
describe('control: the same app on Deno with in-memory stores', () => {
  const running = startedForTheseTests('memory');

  it('runs a webhook delivered three times three times, sends a paid order’s payment and checkout to the service again, and warns once that memory protects nothing', async () => {
    const { sandbox, app } = running;
    const deliveries = await deliveredThreeTimes(sandbox, app, 'memory-webhook');
    expect(await effectsOf(app, deliveries[0]?.payload.transactionId)).toBe(3);
    const first = await post(`${app.url}/payments/wallet/pay`, { orderId: 'kv-wallet', token: sandbox.mintWalletToken() });
    expect(first).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    // Sent again: the service answers it from the order's first transactionRequestId instead of charging (the routes' last line of defence).
    const second = await post(`${app.url}/payments/wallet/pay`, { orderId: 'kv-wallet', token: sandbox.mintWalletToken() });
    expect(second.status).toBe(200);
    expect(second.body.alreadyPaid).toBeUndefined();
    // Not refused by the routes (409 ORDER_ALREADY_PAID): sent to the service, which refuses it (502).
    expect((await post(`${app.url}/payments/checkout`, { orderId: 'kv-wallet' })).status).toBe(502);
    const warnings = (await (await fetch(`${app.url}/warnings`)).json()) as string[];
    expect(warnings.filter((warning) => warning.includes(ISOLATE_WARNING))).toHaveLength(1);
  });
});
