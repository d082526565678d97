import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../../tests/readmes/test/support/quick-start';
import { startOrderService, type OrderService } from '../../next/test/support/order-service';
import { hostedPaymentMarksPaid, walletPaymentMarksPaid } from '../../next/test/support/payment-flows';
import { sandboxRecords } from '../../next/test/support/sandbox-records';
import { reactRouterServe, type ReactRouterServe } from './support/react-router-serve';

const REFUND_CENTS = 500;

// The README's quick start, with the guide's order page and refund route, as written, built by `react-router build` (see global-setup.ts)
// and served as the default template's `npm start` serves it, with the embedded sandbox switched on.
describe('the README quick start under react-router-serve with PAYMOUNT_SANDBOX=1', () => {
  let server: ReactRouterServe | undefined;
  let orderService: OrderService | undefined;
  let sandboxOrigin: string | undefined;
  const running = () => {
    if (!server || !orderService) throw new Error('react-router-serve did not start');
    return { origin: server.origin, orders: orderService.orders };
  };
  const sandbox = () => {
    if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
    return sandboxOrigin;
  };

  beforeAll(async () => {
    orderService = await startOrderService();
    server = await reactRouterServe('quick-start', { PAYMOUNT_SANDBOX: '1', TEST_ORDERS_URL: orderService.url });
  });

  afterAll(async () => {
    await server?.stop();
    await orderService?.close();
  });

  it('takes a hosted checkout paid on the sandbox page, and its webhook reaches the handler', async () => {
    const { origin, orders } = running();
    sandboxOrigin = await hostedPaymentMarksPaid(`${origin}/payments`, orders, 'rr-hosted-1', origin);
  });

  it('takes a wallet payment, and its webhook reaches the handler', async () => {
    const { origin, orders } = running();
    await walletPaymentMarksPaid(`${origin}/payments`, orders, 'rr-wallet-1', sandbox());
  });

  it("refunds part of the wallet payment through the guide's refund route, and the refund's webhook reaches its handler", async () => {
    const { origin, orders } = running();
    const paid = await orders.find('rr-wallet-1');
    const refund = await postJson(`${origin}/admin/refund`, { transactionId: paid?.transactionId, cents: REFUND_CENTS });
    expect(refund).toMatchObject({ status: 200, body: { status: 'succeeded', originalTransactionId: paid?.transactionId } });
    const refunded = await orders.waitFor('rr-wallet-1', (order) => order.status === 'refunded');
    expect(refunded.refunds).toEqual([{ transactionId: refund.body['transactionId'], cents: REFUND_CENTS }]);
    const { refunds } = await sandboxRecords(sandbox(), 'rr-wallet-1');
    expect(refunds.map((r) => [r.transactionId, r.amount.orderAmount])).toEqual([[refund.body['transactionId'], REFUND_CENTS]]);
  });

  it('answers an unknown order with the JSON 404, and a path under the splat that is no payment route with a plain 404', async () => {
    const { origin } = running();
    expect(await postJson(`${origin}/payments/checkout`, { orderId: 'nobody-ordered-this' })).toMatchObject({
      status: 404,
      body: { error: { code: 'ORDER_NOT_FOUND' } },
    });
    const nowhere = await fetch(`${origin}/payments/nowhere`, { method: 'POST' });
    expect([nowhere.status, await nowhere.text()]).toEqual([404, 'Not Found']);
  });

  it("shows the shopper's order page the README's merchantReturnUrl leads to (the guide's placeholder)", async () => {
    const { origin } = running();
    const page = await fetch(`${origin}/orders/rr-hosted-1`);
    expect([page.status, await page.text()]).toEqual([200, 'Order rr-hosted-1: paid']);
  });

  it('ends on SIGTERM, the embedded sandbox closed with the server', async () => {
    const stopped = await server?.stop();
    server = undefined;
    expect(stopped).toBe(0);
  });
});
