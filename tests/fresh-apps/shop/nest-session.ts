// The Nest app's own session check, and its payment options (the quick start's, against the
// sandbox exempt-main.ts starts): what the README's "Global guards" block takes as given.
import { paysOrder } from '@paymount/core';
import type { PaymentsModuleOptions } from '@paymount/nestjs';
import type { Sandbox } from '@paymount/sandbox';
import { orders } from './orders.js';

export function hasValidSession(request: unknown): boolean {
  return (request as { headers: Record<string, string | undefined> }).headers['authorization'] === 'Bearer shop-session';
}

/** Set by `useSandbox` before the module is created; read by the README's `useFactory`. */
export let paymentOptions: PaymentsModuleOptions;

export function useSandbox(sandbox: Sandbox, port: string): void {
  const publicUrl = `http://127.0.0.1:${port}`;
  paymentOptions = {
    client: sandbox.clientOptions(),
    clock: sandbox.clock,
    async resolveOrder(orderId) {
      const order = await orders.find(orderId);
      if (!order) return null;
      return { referenceOrderId: order.id, amount: { orderAmount: order.totalCents, priceCurrency: 'USD' }, description: `Order ${order.id}`, payable: order.status === 'unpaid' };
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
