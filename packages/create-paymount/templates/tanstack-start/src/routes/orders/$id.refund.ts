import { createServerFileRoute } from '@tanstack/react-start/server';
import { notifyUrlOf } from '../../payments.js';
import { payments, shop } from '../../shop.js';

function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}

/** Staff only: the whole payment, refunded through the routes' client. The refund's webhook marks the order refunded. */
export const ServerRoute = createServerFileRoute('/orders/$id/refund').methods({
  POST: async ({ request, params }) => {
    const { orders, staff, publicUrl } = await shop();
    if (!staff.isStaff(request.headers.get('cookie') ?? undefined)) return redirect(`/login?next=/orders/${encodeURIComponent(params.id)}`);
    const order = await orders.find(params.id);
    if (order?.status !== 'paid' || order.transactionId === null) return new Response('This order has no payment to refund.', { status: 409 });
    const { client } = await payments.getPaymentRoutes();
    await client.refund({ originalTransactionId: order.transactionId, notifyUrl: notifyUrlOf(publicUrl) });
    return redirect(`/orders/${order.id}`);
  },
});
