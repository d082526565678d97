import { signWebhook } from '@paymount/core';
import { expect, it } from 'vitest';
import { childrenOf } from '../telemetry-testing';
import { recorder, type ConformanceContext } from './context';
import { ALLOWED_ORIGIN, freshOrderId, webhookPayload } from './fixtures';
import { postJson, postRaw, send } from './http';

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

  it('the API key, the webhook secret and a wallet token sent in every field the browser controls reach no span, span event or log line', async () => {
    const { app, sandbox, telemetry, logLines } = ctx();
    const secrets = [sandbox.apiKey, sandbox.webhookSecret, token()];
    const spansBefore = spans().length;
    const linesBefore = logLines.length;
    for (const secret of secrets) {
      const headers = { authorization: `Bearer ${secret}`, cookie: `session=${secret}`, 'x-order-id': secret };
      const query = `orderId=${encodeURIComponent(secret)}`;
      seen(await postJson(`${app.url}/wallet/pay`, { orderId: secret, token: secret }, headers));
      seen(await postJson(`${app.url}/wallet/pay`, { orderId: freshOrderId(), token: secret }, headers));
      seen(await postJson(`${app.url}/checkout`, { orderId: secret }, headers));
      seen(
        await send(`${app.url}/checkout`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', origin: ALLOWED_ORIGIN },
          body: query,
        }),
      );
      seen(await send(`${app.url}/status?${query}`, { headers }));
      seen(await send(`${app.url}/wallet/config?${query}`, { headers }));
    }
    // Every request above made its span, and the routes logged what they refused: the scan below is over real output.
    expect(spans().length - spansBefore).toBeGreaterThanOrEqual(6 * secrets.length);
    expect(logLines.length).toBeGreaterThan(linesBefore);
    const exported = [...(await telemetry.exportedText()), ...logLines];
    for (const secret of secrets) for (const text of exported) expect(text).not.toContain(secret);
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
