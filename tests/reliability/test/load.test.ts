import { signWebhook } from '@paymount/core';
import { startSandbox } from '@paymount/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startMerchantApp, type MerchantApp } from '../support/apps';
import { tally } from '../support/attempts';
import { createAgent, postJson, send } from '../support/http';
import { Shop, shopOptions } from '../support/shop';

/**
 * 500 concurrent checkouts and 500 concurrent webhook deliveries against each
 * adapter, with the sandbox upstream and its rate limit raised above the load:
 * zero errors, zero duplicate handler runs. Every request is in flight at once
 * (one connection each), and the whole batch is bounded by its count.
 */
const CONCURRENT = 500;
const agent = createAgent(CONCURRENT * 2 + 10);
const results: Record<string, unknown> = {};
afterAll(async () => {
  console.info(`load results: ${JSON.stringify(results, null, 2)}`);
  await agent.close();
});

describe(`load: ${CONCURRENT} concurrent checkouts and ${CONCURRENT} concurrent webhook deliveries per adapter`, () => {
  for (const adapter of ADAPTERS) {
    it(`${adapter}: zero errors, zero duplicate handler runs`, async () => {
      const sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: { limit: 10 * CONCURRENT, windowMs: 1_000 } });
      const shop = new Shop();
      let app: MerchantApp | undefined;
      try {
        app = await startMerchantApp(
          adapter,
          shopOptions({ sandbox, shop, routesUrl: () => app?.routesUrl ?? '', client: { timeoutMs: 20_000, retry: { maxAttempts: 1 } } }),
        );
        const routesUrl = app.routesUrl;
        const orders = Array.from({ length: CONCURRENT }, (_, i) => shop.addOrder(`load${i}`, 1_000 + i));

        const started = performance.now();
        const checkouts = await Promise.all(orders.map((order) => postJson(agent, `${routesUrl}/checkout`, { orderId: order.id })));
        const checkoutStatuses = tally(checkouts.map((answer) => String(answer.status)));
        expect(checkoutStatuses).toEqual({ '201': CONCURRENT });
        const urls = new Set(checkouts.map((answer) => (answer.json as { checkoutUrl: string }).checkoutUrl));
        expect(urls.size).toBe(CONCURRENT);

        // One delivery per order, all at once; then every one again, all at once.
        const deliveries = orders.map((order, i) =>
          signWebhook({
            secret: sandbox.webhookSecret,
            deliveryId: `load-dlv-${i}`,
            payload: {
              transactionId: `load-txn-${i}`,
              transactionRequestId: `load-req-${i}`,
              referenceOrderId: order.referenceOrderId,
              transactionType: 'SALE',
              transactionStatus: 'S',
              amount: { ...order.amount, taxAmount: 0, surchargeAmount: 0 },
            },
          }),
        );
        const deliver = () =>
          Promise.all(deliveries.map((d) => send(agent, `${routesUrl}/webhook`, { method: 'POST', headers: d.headers, body: d.body })));
        const checkoutsMs = Math.round(performance.now() - started);
        const deliveriesStarted = performance.now();
        const first = await deliver();
        expect(tally(first.map((answer) => `${answer.status} ${answer.text}`))).toEqual({ '200 {"received":true}': CONCURRENT });
        const firstDeliveriesMs = Math.round(performance.now() - deliveriesStarted);
        const again = await deliver();
        expect(tally(again.map((answer) => `${answer.status} ${answer.text}`))).toEqual({ '200 {"received":true,"duplicate":true}': CONCURRENT });

        expect(shop.handlerRuns).toHaveLength(CONCURRENT);
        expect(shop.duplicateEffects()).toEqual([]);
        expect([...shop.orders.values()].every((order) => order.state === 'paid')).toBe(true);
        // Wall times are reported for the record only; nothing is asserted on them.
        results[adapter] = { checkouts: checkoutStatuses, checkoutsMs, deliveries: CONCURRENT * 2, firstDeliveriesMs, handlerRuns: shop.handlerRuns.length };
      } finally {
        await app?.close();
        await sandbox.close();
      }
    });
  }
});
