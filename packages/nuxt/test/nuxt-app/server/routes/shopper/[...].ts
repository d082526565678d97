import { getCookie } from 'h3';
import { remotePaymentHandler } from '../../utils/remote-payment-handler';

// Only the shopper whose session cookie owns the orders may pay them: the H3Event is `ctx.context` (test/event-context.test.ts).
export default remotePaymentHandler((options) => ({
  ...options,
  resolveOrder: (orderId, ctx) => (getCookie(ctx.context, 'shopper') === 'owner' ? options.resolveOrder(orderId, ctx) : null),
}));
