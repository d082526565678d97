import { buildWalletPaymentRequest } from '@paymount/core';
import { expect, it } from 'vitest';
import { recorder, type ConformanceContext, type ConformanceTarget } from './context';
import { ORDERS, UNKNOWN_ORDER_ID } from './fixtures';
import { postJson, send } from './http';

export function walletCases(ctx: () => ConformanceContext, target: ConformanceTarget): void {
  const { seen, token } = recorder(ctx);

  it('GET /wallet/config answers 200 with the wallet request for the server-side order', async () => {
    const res = seen(await send(`${ctx().app.url}/wallet/config?orderId=order-1`));
    expect(res.status).toBe(200);
    expect(res.json).toEqual(
      buildWalletPaymentRequest({
        amount: ORDERS['order-1']!.amount,
        gatewayId: ctx().sandbox.gatewayId,
        merchantId: ctx().sandbox.merchantId,
        merchantName: 'Conformance Shop',
      }),
    );
  });

  it('HEAD /wallet/config answers like GET, with the same headers and no body', async () => {
    const get = seen(await send(`${ctx().app.url}/wallet/config?orderId=order-1`));
    const head = await send(`${ctx().app.url}/wallet/config?orderId=order-1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.contentType).toBe(get.contentType);
    const headLength = target.platformZeroesHeadContentLength === true ? '0' : String(Buffer.byteLength(get.text));
    expect(head.contentLength).toBe(target.platformDropsContentLength === true ? null : headLength);
    expect(head.text).toBe('');
    const unknown = await send(`${ctx().app.url}/wallet/config?orderId=${UNKNOWN_ORDER_ID}`, { method: 'HEAD' });
    expect([unknown.status, unknown.text]).toEqual([404, '']);
  });

  it('POST /wallet/config answers 405 with Allow: GET, HEAD', async () => {
    const res = seen(await postJson(`${ctx().app.url}/wallet/config?orderId=order-1`, {}));
    expect(res.status).toBe(405);
    expect(res.allow).toBe('GET, HEAD');
    expect(res.json).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: 'This route answers GET, HEAD only.' } });
  });

  it('GET /wallet/config for an unknown order answers 404, without an orderId 400', async () => {
    const unknown = seen(await send(`${ctx().app.url}/wallet/config?orderId=${UNKNOWN_ORDER_ID}`));
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: { code: 'ORDER_NOT_FOUND', message: 'No order exists with this orderId.' } });
    const missing = seen(await send(`${ctx().app.url}/wallet/config`));
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'Invalid wallet config request: orderId must be the order id, a string' },
    });
  });

  it('POST /wallet/pay answers 200 succeeded and charges the server-side amount, not the browser one', async () => {
    const res = seen(
      await postJson(`${ctx().app.url}/wallet/pay`, {
        orderId: 'order-1',
        token: token(),
        // 8888 would be declined: were it used, the status would be 'failed'.
        amount: { orderAmount: 8888, priceCurrency: 'USD' },
      }),
    );
    expect(res.status).toBe(200);
    const body = res.json as { status: string; referenceOrderId: string; transactionRequestId: string; transactionId: string };
    expect(body).toEqual({
      status: 'succeeded',
      referenceOrderId: 'order-0001',
      transactionRequestId: expect.any(String),
      transactionId: expect.any(String),
    });
    const charge = ctx()
      .sandbox.charges()
      .find((c) => c.transactionRequestId === body.transactionRequestId);
    expect(charge?.amount).toMatchObject({ orderAmount: 1250, taxAmount: 100, priceCurrency: 'USD' });
    // The id a refund or a query names the payment by.
    expect(charge?.transactionId).toBe(body.transactionId);
  });

  it('POST /wallet/pay answers 200 failed with the transactionId and the reason code for a declined payment', async () => {
    const res = seen(await postJson(`${ctx().app.url}/wallet/pay`, { orderId: 'order-declined', token: token() }));
    expect(res.status).toBe(200);
    const body = res.json as { transactionRequestId: string; transactionId: string };
    expect(body).toEqual({
      status: 'failed',
      referenceOrderId: 'order-0002',
      transactionRequestId: expect.any(String),
      transactionId: expect.any(String),
      resultCode: 'CARD_DECLINED',
    });
    const charge = ctx()
      .sandbox.charges()
      .find((c) => c.transactionRequestId === body.transactionRequestId);
    expect(charge).toMatchObject({ transactionId: body.transactionId, transactionStatus: 'F' });
  });

  it('POST /wallet/pay without a token answers 400 naming the field', async () => {
    const res = seen(await postJson(`${ctx().app.url}/wallet/pay`, { orderId: 'order-1' }));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message:
          'Invalid wallet payment request: token must be the wallet token string (paymentMethodData.tokenizationData.token)',
      },
    });
  });

  it('POST /wallet/pay for an unknown order answers 404 and does not echo the token', async () => {
    const secretToken = token();
    const res = seen(await postJson(`${ctx().app.url}/wallet/pay`, { orderId: UNKNOWN_ORDER_ID, token: secretToken }));
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(secretToken);
  });
}
