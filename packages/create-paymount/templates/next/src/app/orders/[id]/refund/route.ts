import { notifyUrlOf } from '@/payments';
import { shop } from '@/shop';

function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}

/** Staff only: the whole payment, refunded through the routes' client. The refund's webhook marks the order refunded. */
export async function POST(request: Request, { params }: RouteContext<'/orders/[id]/refund'>) {
  const { id } = await params;
  const { orders, staff, routes, publicUrl } = await shop();
  if (!staff.isStaff(request.headers.get('cookie') ?? undefined)) return redirect(`/login?next=/orders/${encodeURIComponent(id)}`);
  const order = await orders.find(id);
  if (order?.status !== 'paid' || order.transactionId === null) {
    return new Response('This order has no payment to refund.', { status: 409 });
  }
  const { client } = await routes.getPaymentRoutes();
  await client.refund({ originalTransactionId: order.transactionId, notifyUrl: notifyUrlOf(publicUrl) });
  return redirect(`/orders/${order.id}`);
}
