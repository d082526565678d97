import { signWebhook } from '@paymount/core';
import { expect, it } from 'vitest';
import { childrenOf } from '../telemetry-testing';
import { recorder, type ConformanceContext } from './context';
import { freshOrderId, webhookPayload } from './fixtures';
import { postJson, postRaw } from './http';

/** The handlers' telemetry option, exported through this adapter: the same spans and metrics as every other. */
export function telemetryCases(ctx: () => ConformanceContext): void {
  const { seen, token } = recorder(ctx);
  const spans = () => ctx().telemetry.spans();

  it('a wallet payment is a route span with its order, holding the service call and its attempt', async () => {
    const orderId = freshOrderId();
    const res = seen(await postJson(`${ctx().app.url}/wallet/pay`, { orderId, token: token() }));
    expect(res.status).toBe(200);
    const route = spans().find((span) => span.name === 'POST /wallet/pay' && span.attributes['paymount.order.id'] === orderId);
    expect(route?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/wallet/pay',
      'http.response.status_code': 200,
      'paymount.order.reference_id': orderId,
    });
    const [call] = childrenOf(spans(), route!);
    expect(call?.attributes).toMatchObject({ 'url.path': '/v1/checkout/sale', 'paymount.outcome': 'success', 'paymount.service.code': '0' });
    expect(childrenOf(spans(), call!).map((attempt) => attempt.attributes['http.response.status_code'])).toEqual([200]);
  });

  it('a webhook delivery and its redelivery are spans with the verification, event type and result, counted as such', async () => {
    const { telemetry, sandbox } = ctx();
    const deliveryId = `dlv-otel-${freshOrderId()}`;
    const delivery = signWebhook({ payload: webhookPayload({ transactionId: `TX-${deliveryId}` }), secret: sandbox.webhookSecret, deliveryId });
    const hitsBefore = await telemetry.total('paymount.webhook.dedupe_hits', { 'paymount.webhook.result': 'duplicate' });
    for (let i = 0; i < 2; i++) seen(await postRaw(`${ctx().app.url}/webhook`, delivery.body, delivery.headers));
    const deliveries = spans().filter((span) => span.attributes['paymount.webhook.delivery_id'] === deliveryId);
    expect(deliveries.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'http.route': '/webhook',
        'http.response.status_code': 200,
        'paymount.webhook.verification': 'verified',
        'paymount.event.type': 'payment.succeeded',
        'paymount.webhook.result': 'handled',
        'paymount.webhook.handler.duration': expect.any(Number),
      }),
      expect.objectContaining({ 'paymount.webhook.result': 'duplicate', 'paymount.event.type': 'payment.succeeded' }),
    ]);
    expect(await telemetry.total('paymount.webhook.dedupe_hits', { 'paymount.webhook.result': 'duplicate' })).toBe(hitsBefore + 1);
  });

  it('a payment the order guard refuses is counted with its reason', async () => {
    const { telemetry } = ctx();
    const reason = { 'http.route': '/checkout', 'paymount.order_guard.reason': 'ORDER_NOT_PAYABLE' };
    const before = await telemetry.total('paymount.orders.guard_refusals', reason);
    const res = seen(await postJson(`${ctx().app.url}/checkout`, { orderId: freshOrderId('settled') }));
    expect(res.status).toBe(409);
    expect(await telemetry.total('paymount.orders.guard_refusals', reason)).toBe(before + 1);
  });
}
