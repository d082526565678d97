import { notifyUrlOf } from '../../../../src/payments.js';

/** Staff only: the whole payment, through the routes' client. The refund's webhook marks the order refunded. */
export default defineEventHandler(async (event) => {
  const id = getRouterParam(event, 'id') ?? '';
  const { orders, staff, publicUrl } = await useShop();
  if (!staff.isStaff(getRequestHeader(event, 'cookie'))) return sendRedirect(event, `/login?next=/orders/${encodeURIComponent(id)}`, 303);
  const order = await orders.find(id);
  if (order?.status !== 'paid' || order.transactionId === null) throw createError({ statusCode: 409, statusMessage: 'This order has no payment to refund.' });
  const { client } = await payments.getPaymentRoutes(event);
  await client.refund({ originalTransactionId: order.transactionId, notifyUrl: notifyUrlOf(publicUrl) });
  return sendRedirect(event, `/orders/${order.id}`, 303);
});
