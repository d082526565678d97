// `deno run --unstable-kv --allow-net=127.0.0.1 --allow-read=<dir> --allow-write=<dir> --allow-env=DENO_DEPLOYMENT_ID
//  test/deno/merchant-app.ts '<MerchantAppConfig JSON>'`: a merchant's app on Deno whose payment routes, and their
// stores, are made afresh for every request, as a fresh isolate of Deno Deploy makes them; the stores are
// denoKvStores on one KV (or, for the control run, paymount's in-memory defaults). Run from test/routes-on-deno.test.ts.
import { createFetchHandler, type PaymentEvent, type PaymentEventContext } from '@paymount/core';
import { denoKvStores, inKvCommit, type KvEventWrites } from '@paymount/deno-kv';
import type { MerchantAppConfig } from './merchant-app-config';

const config = JSON.parse(Deno.args[0] ?? '{}') as MerchantAppConfig;
const kv = await Deno.openKv(config.kvPath);
const warnings: string[] = [];
const appUrl = `http://127.0.0.1:${config.port}`;

/** How many times the handlers' effect took hold for a transaction: read by the test. */
const effectKey = (transactionId: string | undefined) => ['effects', transactionId ?? 'none'];

/**
 * The handler's effect, for every event. For `config.throwOnceOrder` the first
 * run writes its effect and then throws (its failure noted outside the
 * commit, so the retry knows it came): nothing of that run may take hold.
 */
async function countEffect(event: PaymentEvent, { db }: { db: Pick<KvEventWrites, 'sum'> }): Promise<void> {
  db.sum(effectKey(event.transactionId), 1n);
  if (event.referenceOrderId !== config.throwOnceOrder) return;
  const failedBefore = ['failed-once', event.transactionId ?? 'none'];
  if ((await kv.get(failedBefore)).versionstamp !== null) return;
  await kv.set(failedBefore, true);
  throw new Error('the handler failed after writing its effect');
}

/** Without a store that gives a commit, the effect is written as the handler runs, whether it then throws or not. */
async function countEffectAtOnce(event: PaymentEvent, _ctx: PaymentEventContext): Promise<void> {
  const atomic = kv.atomic();
  try {
    await countEffect(event, { db: atomic });
  } finally {
    await atomic.commit();
  }
}

function freshRoutes() {
  const stores = config.stores === 'kv' ? denoKvStores(kv) : undefined;
  return createFetchHandler(
    {
      client: { ...config.service.client, localDevelopment: true, timeoutMs: 5_000, deadlineMs: 10_000 },
      resolveOrder: (orderId) => config.shop[orderId] ?? null,
      notifyUrl: () => `${appUrl}/payments/webhook`,
      merchantReturnUrl: 'http://127.0.0.1/shop/thanks',
      wallet: { gatewayId: config.service.gatewayId, merchantName: 'Deno KV Shop' },
      webhook: { secret: config.service.webhookSecret },
      ...(stores ? { store: stores.idempotency, orders: { store: stores.orders } } : {}),
      logger: { debug() {}, info() {}, warn: (fields: unknown, message?: string) => void warnings.push(String(message ?? fields)), error() {} },
      on: { '*': stores ? inKvCommit(countEffect) : countEffectAtOnce },
    },
    { mountPath: '/payments' },
  );
}

Deno.serve({ hostname: '127.0.0.1', port: config.port }, async (request) => {
  const url = new URL(request.url);
  if (url.pathname === '/effects') {
    const entry = await kv.get<Deno.KvU64>(effectKey(url.searchParams.get('transactionId') ?? undefined));
    return Response.json({ count: Number(entry.value?.value ?? 0n) });
  }
  if (url.pathname === '/warnings') return Response.json(warnings);
  if (!url.pathname.startsWith('/payments/')) return new Response('ready');
  return freshRoutes()(request);
});
