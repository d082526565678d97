import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../../tests/readmes/test/support/quick-start';
import { hostedPaymentMarksPaid, walletPaymentMarksPaid } from '../../next/test/support/payment-flows';
import { startOrderService, type OrderService } from '../../next/test/support/order-service';
import { serveTestApp, type AstroServer } from './support/test-app';

/** Resolves once `text` is in the server's output, or fails after `timeoutMs`. */
async function logged(server: AstroServer, text: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes(text)) {
    if (Date.now() > deadline) throw new Error(`the server never logged "${text}":\n${server.output()}`);
    await sleep(25);
  }
  return server.output();
}

// The README's quick start in the test app (test/support/test-app.ts), built by `astro build` without a payment setting.
describe('the README quick start, built by astro build and served by node dist/server/entry.mjs with PAYMOUNT_SANDBOX=1', () => {
  let server: AstroServer | undefined;
  let orderService: OrderService | undefined;
  let sandboxOrigin: string | undefined;
  const running = () => {
    if (!server || !orderService) throw new Error('the Astro server did not start');
    return { server, orders: orderService.orders, origin: server.origin };
  };

  beforeAll(async () => {
    orderService = await startOrderService();
    server = await serveTestApp({ PAYMOUNT_SANDBOX: '1', TEST_ORDERS_URL: orderService.url });
  });

  afterAll(async () => {
    await server?.close();
    await orderService?.close();
  });

  it('takes a hosted checkout paid on the sandbox page, and its webhook reaches the handler', async () => {
    const { origin, orders } = running();
    sandboxOrigin = await hostedPaymentMarksPaid(`${origin}/payments`, orders, 'astro-hosted-1', origin);
    expect(await logged(running().server, 'payments go to the embedded sandbox at http://127.0.0.1:')).toContain('no real money moves');
  });

  it('takes a wallet payment, and its webhook reaches the handler', async () => {
    const { origin, orders } = running();
    if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
    await walletPaymentMarksPaid(`${origin}/payments`, orders, 'astro-wallet-1', sandboxOrigin);
  });

  it("answers a path below the mount that is no route with Astro's bare 404, and an unknown order with the routes' JSON 404", async () => {
    const { origin } = running();
    const nowhere = await fetch(`${origin}/payments/nowhere`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([nowhere.status, await nowhere.text()]).toEqual([404, '']);
    expect(await postJson(`${origin}/payments/checkout`, { orderId: 'nobody-ordered-this' })).toMatchObject({ status: 404, body: { error: { code: 'ORDER_NOT_FOUND' } } });
  });

  it("serves the shop's order page after the payment (the README's merchantReturnUrl, the guide's wallet button page), and 404 for no order", async () => {
    const page = await fetch(`${running().origin}/orders/astro-hosted-1`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<span id="order-status">paid</span>');
    // Paid: no wallet button, no checkout form.
    expect(html).not.toContain('paymount-wallet-button');
    expect(html).not.toContain('/payments/checkout');
    const nobody = await fetch(`${running().origin}/orders/nobody-ordered-this`);
    expect([nobody.status, await nobody.text()]).toEqual([404, 'No such order']);
  });

  it("hands resolveOrder Astro's APIContext: the cart the app's middleware put in locals is the amount asked", async () => {
    const { origin, orders } = running();
    orders.add('astro-context-1', 1999);
    const config = await fetch(`${origin}/context/wallet/config?orderId=astro-context-1`);
    expect(config.status).toBe(200);
    expect(((await config.json()) as { transactionInfo: { totalPrice: string } }).transactionInfo.totalPrice).toBe('43.21');
  });

  it("answers a body the app's middleware took with 500 BODY_ALREADY_CONSUMED, and logs the fix in Astro's words", async () => {
    const { origin, orders } = running();
    orders.add('astro-body-1', 1999);
    const res = await postJson(`${origin}/body-read/checkout`, { orderId: 'astro-body-1' });
    expect(res).toMatchObject({ status: 500, body: { error: { code: 'BODY_ALREADY_CONSUMED' } } });
    const output = await logged(running().server, 'BODY_ALREADY_CONSUMED');
    expect(output).toContain('`await context.request.clone().json()`');
    expect(output).toContain('src/middleware.ts');
  });

  it('answers 500 from a route without a rest parameter, and logs where the endpoints belong', async () => {
    const res = await postJson(`${running().origin}/misplaced`, { orderId: 'astro-hosted-1' });
    expect(res).toMatchObject({ status: 500, body: { error: { code: 'INTERNAL_ERROR' } } });
    expect(await logged(running().server, 'not on a rest-parameter route')).toContain('src/pages/payments/[...paymount].ts');
  });
});
