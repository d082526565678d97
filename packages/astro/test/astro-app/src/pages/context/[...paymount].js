import { paymentEndpoints } from '@paymount/astro';
import { paymentOptions } from '../../../payments.ts';

// The README's options, with the order's amount read from the APIContext the endpoints hand resolveOrder (ctx.context):
// the cart the app's middleware put in `locals`.
export const prerender = false;

export const { GET, POST, HEAD, ALL } = paymentEndpoints(async () => {
  const options = await paymentOptions();
  return {
    ...options,
    async resolveOrder(orderId, ctx) {
      const order = await options.resolveOrder(orderId, ctx);
      return order && { ...order, amount: { ...order.amount, orderAmount: ctx.context.locals.cartCents } };
    },
  };
});
