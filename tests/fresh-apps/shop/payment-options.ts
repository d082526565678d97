// The payment options of the quick starts against a sandbox, for the apps the READMEs describe in
// parts (an app-wide guard or hook): what their blocks take as "the options of the quick start".
import { paysOrder, type PaymentRoutesOptions } from '@paymount/core';
import type { Sandbox } from '@paymount/sandbox';
import { orders } from './orders.js';

export function sandboxPaymentOptions<Context>(sandbox: Sandbox, port: string): PaymentRoutesOptions<Context> {
  const publicUrl = `http://127.0.0.1:${port}`;
  return {
    client: sandbox.clientOptions(),
    clock: sandbox.clock,
    async resolveOrder(orderId) {
      const order = await orders.find(orderId);
      if (!order) return null;
      return { referenceOrderId: order.id, amount: { orderAmount: order.totalCents, priceCurrency: 'USD' }, description: `Order ${order.id}`, payable: order.status === 'unpaid' || order.status === 'failed' };
    },
    notifyUrl: `${publicUrl}/payments/webhook`,
    merchantReturnUrl: (order) => `${publicUrl}/orders/${order.referenceOrderId}`,
    wallet: { gatewayId: sandbox.gatewayId },
    webhook: { secret: sandbox.webhookSecret },
    on: {
      'payment.succeeded': async (event) => {
        const order = await orders.find(event.referenceOrderId);
        if (order && paysOrder(event, { orderAmount: order.totalCents, priceCurrency: 'USD' })) await orders.markPaid(order.id, event.transactionId);
      },
    },
  };
}
