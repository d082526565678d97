import { paysOrder, type PaymentRoutesOptions, type PaymentSucceededEvent } from '@paymount/core';
import { isPayable, type Order } from './order-rules.js';

/** Where every template mounts paymount's routes. */
export const MOUNT = '/payments';

/** Where the service posts payments' and refunds' results. */
export function notifyUrlOf(publicUrl: string): string {
  return `${publicUrl}${MOUNT}/webhook`;
}

export interface OrderSource {
  /** Where the shop is reached, without a trailing slash. */
  publicUrl: string;
  shopName: string;
  findOrder(id: string): Promise<Order | undefined>;
}

/**
 * The options of paymount's routes that are the shop's, whatever its database: where the service
 * sends shoppers and results, and each order as the server has it.
 */
export function orderOptions<TContext>({ publicUrl, shopName, findOrder }: OrderSource): Pick<PaymentRoutesOptions<TContext>, 'notifyUrl' | 'merchantReturnUrl' | 'resolveOrder'> {
  return {
    notifyUrl: notifyUrlOf(publicUrl),
    merchantReturnUrl: (order) => `${publicUrl}/orders/${order.referenceOrderId}`,
    // The amount comes from the server's order, whatever the browser sent.
    async resolveOrder(orderId) {
      const order = await findOrder(orderId);
      if (!order) return null;
      return {
        referenceOrderId: order.id,
        amount: { orderAmount: order.amount, priceCurrency: order.currency },
        description: `${shopName}: ${order.name}`,
        // Paid or refunded: answered 409 ORDER_NOT_PAYABLE, nothing sent to the service.
        payable: isPayable(order),
      };
    },
  };
}

/** Only a payment these routes made for this order, of its whole amount, pays it; any other is to be refunded. */
export function paysShopOrder(event: PaymentSucceededEvent, order: Order | undefined): order is Order {
  if (order && paysOrder(event, { orderAmount: order.amount, priceCurrency: order.currency })) return true;
  console.warn(`Payment ${event.transactionId} does not pay order ${event.referenceOrderId}: refund it.`);
  return false;
}
