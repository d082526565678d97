import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type RunningDev } from '../scripts/dev.mjs';
import { Shopper } from './shopper.js';

/** A port nothing listens on now: wrangler dev must be told its port, which the Worker's own URL names. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The shop as `npm start` runs it, the Worker in `wrangler dev` (workerd), paymount's stores in its local Durable
// Object and the orders in a local D1 database of this run's own. Not @cloudflare/vitest-pool-workers: the sandbox is a
// Node server that must deliver its webhooks to the Worker over HTTP, and the pool's Worker listens on no port.
const state = mkdtempSync(join(tmpdir(), 'paymount-shop-state-'));
let shop: RunningDev;
beforeAll(async () => {
  shop = await startDev({ port: await freePort(), persistTo: state, quiet: true, sandbox: { announce: false } });
});
afterAll(async () => {
  await shop?.close();
  rmSync(state, { recursive: true, force: true });
});

const sandbox = () => shop.sandbox;

describe('the Worker shop, in wrangler dev on the sandbox', () => {
  it('takes a hosted checkout: the webhook marks the order paid, with the amount of the server', async () => {
    const shopper = new Shopper(shop);
    const orderId = await shopper.buy('mug');
    expect(await shopper.status(orderId)).toBe('pending');
    const checkoutUrl = await shopper.checkout(orderId);
    expect(checkoutUrl.origin).toBe(sandbox().url);
    expect(await shopper.pay(checkoutUrl)).toMatch(new RegExp(`^${shop.url}/orders/${orderId}\\?`));
    expect(await shopper.status(orderId)).toBe('paid');
    expect(sandbox().charges().filter((charge) => charge.referenceOrderId === orderId)).toEqual([
      expect.objectContaining({ transactionStatus: 'S', amount: expect.objectContaining({ orderAmount: 1250, priceCurrency: 'USD' }) }),
    ]);
    // Paid is final: paymount refuses another checkout of it and sends nothing.
    const again = await fetch(`${shop.url}/payments/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId }) });
    expect(again.status).toBe(409);
  });

  it('keeps a declined order payable: paid on the retry', async () => {
    const shopper = new Shopper(shop);
    const orderId = await shopper.buy('tee');
    await shopper.pay(await shopper.checkout(orderId), 'additional-3ds');
    expect(await shopper.status(orderId)).toBe('failed');
    await shopper.pay(await shopper.checkout(orderId));
    expect(await shopper.status(orderId)).toBe('paid');
    const charges = sandbox().charges().filter((charge) => charge.referenceOrderId === orderId);
    expect(charges.map((charge) => charge.transactionStatus)).toEqual(['F', 'S']);
  });

  it('a replayed webhook changes nothing: the refunded order stays refunded', async () => {
    const shopper = new Shopper(shop);
    const orderId = await shopper.buy('mug');
    await shopper.pay(await shopper.checkout(orderId));
    // Refunds are behind the staff login: without it, nothing is sent.
    expect((await shopper.refund(orderId)).headers.get('location')).toBe(`/login?next=/orders/${orderId}`);
    expect(sandbox().refunds()).toEqual([]);
    await shopper.signIn('staff');
    expect((await shopper.refund(orderId)).status).toBe(303);
    expect(await shopper.status(orderId)).toBe('refunded');

    const paid = sandbox().deliveries().find((delivery) => delivery.event === 'payment.succeeded' && delivery.payload['referenceOrderId'] === orderId)!;
    const replay = await sandbox().resend(paid.deliveryId);
    await sandbox().waitForDeliveries();
    expect(sandbox().deliveries().find((delivery) => delivery.deliveryId === replay.deliveryId)).toMatchObject({ state: 'delivered', attempts: [expect.objectContaining({ status: 200 })] });
    expect(await shopper.status(orderId)).toBe('refunded');
    expect(sandbox().refunds()).toHaveLength(1);
  });

  it('serves the wallet button\'s script, @paymount/browser, as a static asset', async () => {
    const script = await fetch(`${shop.url}/assets/paymount-browser.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain('mountWalletButton');
  });
});
