import { signWebhook } from '@paymount/core';
import { expect, it } from 'vitest';
import type { ConformanceContext } from './context';
import { freshOrderId, WEBHOOK_MAX_BODY_BYTES, webhookPayload } from './fixtures';
import { postJson, postRaw, postUnread, type Exchange } from './http';

const RECEIVED = { received: true };
const DUPLICATE = { received: true, duplicate: true };

export function webhookCases(ctx: () => ConformanceContext): void {
  const url = () => `${ctx().app.url}/webhook`;
  const deliver = async (delivery: { body: string; headers: Record<string, string> }): Promise<Exchange> => {
    const exchange = await postRaw(url(), delivery.body, delivery.headers);
    ctx().responses.push(exchange.text);
    return exchange;
  };
  const signed = (payload: Record<string, unknown>, extra: { deliveryId?: string; timestamp?: number; secret?: string } = {}) =>
    signWebhook({ payload, secret: extra.secret ?? ctx().sandbox.webhookSecret, ...extra });
  const eventsFor = (transactionId: string) => ctx().events.filter((event) => event.transactionId === transactionId);

  it('a valid delivery answers 200 and runs the handler once with the normalised event', async () => {
    const res = await deliver(signed(webhookPayload({ transactionId: 'TX-valid' }), { deliveryId: 'dlv-valid' }));
    expect(res.status).toBe(200);
    expect(res.json).toEqual(RECEIVED);
    const events = eventsFor('TX-valid');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'payment.succeeded',
      deliveryId: 'dlv-valid',
      referenceOrderId: 'order-0001',
      transactionStatus: 'S',
      payload: { futureField: 'kept' },
    });
  });

  it('a refund delivery runs refund.succeeded with the refund\'s own transactionId and the payment\'s originalTransactionId', async () => {
    const payload = webhookPayload({
      transactionId: 'TX-refund-1',
      originalTransactionId: 'TX-valid',
      transactionRequestId: 'REF-REQ-1',
      transactionType: 'REFUND',
      amount: { priceCurrency: 'USD', orderAmount: 500, totalAmount: 500 },
    });
    const res = await deliver(signed(payload));
    expect(res.status).toBe(200);
    const events = eventsFor('TX-refund-1');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'refund.succeeded',
      transactionId: 'TX-refund-1',
      originalTransactionId: 'TX-valid',
      transactionRequestId: 'REF-REQ-1',
      amount: { priceCurrency: 'USD', orderAmount: 500, totalAmount: 500 },
    });
  });

  it('a repeated delivery answers 200 and does not run the handler again', async () => {
    const delivery = signed(webhookPayload({ transactionId: 'TX-dup' }), { deliveryId: 'dlv-dup' });
    expect((await deliver(delivery)).json).toEqual(RECEIVED);
    const again = await deliver(delivery);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(DUPLICATE);
    // The same event re-signed under a new delivery id is a duplicate too.
    const resigned = await deliver(signed(webhookPayload({ transactionId: 'TX-dup' }), { deliveryId: 'dlv-dup-2' }));
    expect(resigned.json).toEqual(DUPLICATE);
    expect(eventsFor('TX-dup')).toHaveLength(1);
  });

  it('a later status of the same transaction is a new event, handled in arrival order', async () => {
    await deliver(signed(webhookPayload({ transactionId: 'TX-order', transactionStatus: 'F' })));
    await deliver(signed(webhookPayload({ transactionId: 'TX-order', transactionStatus: 'S' })));
    expect(eventsFor('TX-order').map((event) => event.type)).toEqual(['payment.failed', 'payment.succeeded']);
  });

  it('a delivery of an event still being handled answers 409 with Retry-After; after a failed first run its retry is handled once', async () => {
    const hold = ctx().holdNextEvent('TX-inflight');
    const first = deliver(signed(webhookPayload({ transactionId: 'TX-inflight' }), { deliveryId: 'dlv-inflight-1' }));
    await hold.started;
    const second = signed(webhookPayload({ transactionId: 'TX-inflight' }), { deliveryId: 'dlv-inflight-2' });
    const refused = await deliver(second);
    expect(refused.status).toBe(409);
    expect(refused.retryAfter).toBe('2');
    expect(refused.json).toEqual({
      error: { code: 'WEBHOOK_IN_PROGRESS', message: 'The same event is being handled by another delivery; retry later.' },
    });
    hold.release(true);
    expect((await first).status).toBe(500);
    expect((await deliver(second)).json).toEqual(RECEIVED);
    expect((await deliver(second)).json).toEqual(DUPLICATE);
    expect(eventsFor('TX-inflight')).toHaveLength(1);
  });

  it('a forged delivery answers 400 and runs no handler', async () => {
    const res = await deliver(signed(webhookPayload({ transactionId: 'TX-forged' }), { secret: 'whsec_not_the_real_one' }));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        code: 'WEBHOOK_BAD_SIGNATURE',
        message: 'The X-Signature header does not match the body under any configured webhook secret.',
      },
    });
    expect(eventsFor('TX-forged')).toHaveLength(0);
  });

  it('a signed delivery lacking a field its event always has answers 400 WEBHOOK_INVALID_PAYLOAD naming it, and runs no handler', async () => {
    const { referenceOrderId: _missing, ...incomplete } = webhookPayload({ transactionId: 'TX-incomplete' });
    const res = await deliver(signed(incomplete));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        code: 'WEBHOOK_INVALID_PAYLOAD',
        message: 'The webhook payload is not a complete payment.succeeded event (referenceOrderId is required); no handler ran.',
      },
    });
    expect(eventsFor('TX-incomplete')).toHaveLength(0);
  });

  it('a tampered body answers 400 and runs no handler', async () => {
    const delivery = signed(webhookPayload({ transactionId: 'TX-tampered' }));
    const res = await deliver({ ...delivery, body: delivery.body.replace('"S"', '"F"') });
    expect(res.status).toBe(400);
    expect((res.json as { error: { code: string } }).error.code).toBe('WEBHOOK_BAD_SIGNATURE');
    expect(eventsFor('TX-tampered')).toHaveLength(0);
  });

  it('a stale delivery answers 400 and runs no handler', async () => {
    const res = await deliver(signed(webhookPayload({ transactionId: 'TX-stale' }), { timestamp: Date.now() - 10 * 60_000 }));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        code: 'WEBHOOK_STALE_TIMESTAMP',
        message: 'The X-Timestamp header is older than the allowed 300000 ms: a replayed or long-delayed delivery.',
      },
    });
    expect(eventsFor('TX-stale')).toHaveLength(0);
  });

  it('a delivery without its headers answers 400 naming the header', async () => {
    const { body, headers } = signed(webhookPayload({ transactionId: 'TX-headers' }));
    const res = await deliver({ body, headers: { 'content-type': headers['content-type'], 'x-timestamp': headers['x-timestamp'] } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: { code: 'WEBHOOK_MISSING_HEADER', message: 'The webhook delivery has no X-Signature header.' },
    });
    expect(eventsFor('TX-headers')).toHaveLength(0);
  });

  it('an oversize delivery answers 413', async () => {
    const delivery = signed(webhookPayload({ transactionId: 'TX-big', padding: 'x'.repeat(WEBHOOK_MAX_BODY_BYTES) }));
    const res = await postUnread(url(), delivery.body, delivery.headers);
    ctx().responses.push(res.text);
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ error: { code: 'BODY_TOO_LARGE', message: 'The request body is too large.' } });
  });

  it('a failing handler answers 500, and the retried delivery is then processed once', async () => {
    const delivery = signed(webhookPayload({ transactionId: 'TX-retry' }), { deliveryId: 'dlv-retry' });
    ctx().failNextEvent('TX-retry');
    const failed = await deliver(delivery);
    expect(failed.status).toBe(500);
    expect(failed.json).toEqual({
      error: { code: 'WEBHOOK_HANDLER_FAILED', message: 'A webhook handler failed; the delivery will be retried.' },
    });
    expect(eventsFor('TX-retry')).toHaveLength(0);
    expect((await deliver(delivery)).json).toEqual(RECEIVED);
    expect((await deliver(delivery)).json).toEqual(DUPLICATE);
    expect(eventsFor('TX-retry')).toHaveLength(1);
  });

  it('a body whose signed notifyTime is past the window answers 400 WEBHOOK_STALE_EVENT whatever its fresh X-Timestamp', async () => {
    const notifyTime = new Date(Date.now() - 10 * 60_000).toISOString();
    const res = await deliver(signed(webhookPayload({ transactionId: 'TX-replayed', notifyTime })));
    expect(res.status).toBe(400);
    expect((res.json as { error: { code: string } }).error.code).toBe('WEBHOOK_STALE_EVENT');
    expect(eventsFor('TX-replayed')).toHaveLength(0);
  });

  it("another event's body replayed under a delivery id awaiting its retry does not settle that delivery's event", async () => {
    const e1 = webhookPayload({ transactionId: 'TX-e1' });
    expect((await deliver(signed(e1, { deliveryId: 'dlv-e1' }))).json).toEqual(RECEIVED);
    const e2 = signed(webhookPayload({ transactionId: 'TX-e2' }), { deliveryId: 'dlv-e2' });
    ctx().failNextEvent('TX-e2');
    expect((await deliver(e2)).status).toBe(500);
    expect((await deliver(signed(e1, { deliveryId: 'dlv-e2' }))).json).toEqual(DUPLICATE);
    expect((await deliver(e2)).json).toEqual(RECEIVED);
    expect(eventsFor('TX-e1')).toHaveLength(1);
    expect(eventsFor('TX-e2')).toHaveLength(1);
  });
}

/** The sandbox's own deliveries: a payment made through the routes comes back signed, and is handled once. */
export function deliveryCases(ctx: () => ConformanceContext): void {
  it("a wallet payment is confirmed by the service's signed webhook, handled once", async () => {
    const token = ctx().sandbox.mintWalletToken();
    ctx().walletTokens.push(token);
    const paid = await postJson(`${ctx().app.url}/wallet/pay`, { orderId: freshOrderId(), token });
    const { transactionRequestId } = paid.json as { transactionRequestId: string };
    await ctx().sandbox.waitForDeliveries();
    const delivery = ctx()
      .sandbox.deliveries()
      .find((d) => d.payload.transactionRequestId === transactionRequestId);
    expect(delivery?.state).toBe('delivered');
    expect(delivery?.attempts.at(-1)?.status).toBe(200);
    const events = ctx().events.filter((event) => event.transactionRequestId === transactionRequestId);
    expect(events.map((event) => event.type)).toEqual(['payment.succeeded']);
    expect(events[0]?.deliveryId).toBe(delivery?.deliveryId);
  });

  it('a delivery its handler failed is retried by the service and then handled once', async () => {
    // Armed before paying: nothing else is delivered for this order now, the earlier deliveries were awaited.
    ctx().failNextEvent('order-0002');
    const token = ctx().sandbox.mintWalletToken();
    ctx().walletTokens.push(token);
    const paid = await postJson(`${ctx().app.url}/wallet/pay`, { orderId: 'order-declined', token });
    const { transactionRequestId } = paid.json as { transactionRequestId: string };
    await ctx().sandbox.waitForDeliveries();
    const delivery = ctx()
      .sandbox.deliveries()
      .find((d) => d.payload.transactionRequestId === transactionRequestId);
    expect(delivery?.state).toBe('delivered');
    expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    const events = ctx().events.filter((event) => event.transactionRequestId === transactionRequestId);
    expect(events.map((event) => event.type)).toEqual(['payment.failed']);
  });
}
