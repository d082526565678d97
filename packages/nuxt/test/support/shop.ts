import type { Sandbox } from '@paymount/sandbox';
import type { Order } from '../../../../tests/readmes/context/orders';
import { startNitroServer, type NitroServer } from './nitro-server';

/**
 * The test app's production build with the README's settings in its NUXT_ variables, as in production, here
 * pointing at `sandbox`: its routes pay on it, and the README's page opens its test wallet.
 */
export function startShop(sandbox: Sandbox): Promise<NitroServer> {
  const settings = sandbox.clientOptions();
  return startNitroServer(
    {
      NUXT_PAYMENT_API_KEY: settings.apiKey,
      NUXT_PAYMENT_BASE_URL: settings.baseUrl,
      NUXT_PAYMENT_APP_ID: settings.appId,
      NUXT_PAYMENT_MERCHANT_ID: settings.merchantId,
      NUXT_PAYMENT_GATEWAY_ID: sandbox.gatewayId,
      NUXT_PAYMENT_WEBHOOK_SECRET: sandbox.webhookSecret,
      NUXT_PAYMENT_LOCAL_DEVELOPMENT: 'true',
      NUXT_PUBLIC_WALLET_SANDBOX_URL: sandbox.url,
    },
    { atOrigin: (origin) => ({ NUXT_SHOP_URL: origin }) },
  );
}

let orderCount = 0;
/** A new order of `totalCents` in the shop's store, through the app's test route /test-orders/<id>. */
export async function addOrder(shop: NitroServer, totalCents: number): Promise<string> {
  const id = `nuxt${Date.now()}${orderCount++}`;
  const res = await fetch(`${shop.origin}/test-orders/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ totalCents }) });
  if (res.status !== 200) throw new Error(`adding order ${id} was answered ${res.status}`);
  return id;
}

/** The order once the README's webhook handlers have made it `status` (a limit for a hang, never a verdict on speed). */
export async function orderOnce(shop: NitroServer, id: string, status: Order['status']): Promise<Order> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const order = (await (await fetch(`${shop.origin}/test-orders/${id}`)).json()) as Order;
    if (order.status === status) return order;
    if (Date.now() > deadline) throw new Error(`order ${id} is still ${JSON.stringify(order)}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
