import type { APIRoute } from 'astro';
import { notifyUrlOf } from '../../../payments.js';
import { payments } from '../../../shop.js';

/** Staff only: the whole payment, through the routes' client. The refund's webhook marks the order refunded. */
export const POST: APIRoute = async (context) => {
  const { params, request, locals, redirect } = context;
  const id = params.id ?? '';
  if (!locals.shop.staff.isStaff(request.headers.get('cookie') ?? undefined)) return redirect(`/login?next=/orders/${encodeURIComponent(id)}`, 303);
  const order = await locals.shop.orders.find(id);
  if (order?.status !== 'paid' || order.transactionId === null) return new Response('This order has no payment to refund.', { status: 409 });
  const { client } = await payments.getPaymentRoutes(context);
  await client.refund({ originalTransactionId: order.transactionId, notifyUrl: notifyUrlOf(locals.shop.publicUrl) });
  return redirect(`/orders/${order.id}`, 303);
};
