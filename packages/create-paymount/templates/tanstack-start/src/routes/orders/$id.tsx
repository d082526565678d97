import { createFileRoute, Link, notFound, useRouter } from '@tanstack/react-router';
import { createServerFn } from '@tanstack/react-start';
import { getHeader } from '@tanstack/react-start/server';
import { useCallback } from 'react';
import { formatPrice } from '../../catalog.js';
import { OrderPayment } from '../../order-payment.js';
import { ORDER_STATUS_TEXT } from '../../order-rules.js';
import { isPayable } from '../../orders.js';
import { MOUNT } from '../../payments.js';
import { shop } from '../../shop.js';

/** What the order's page shows, read on the server: the amount is the server's, the browser only names the order. */
const orderPage = createServerFn({ method: 'GET' })
  .validator((id: string) => id)
  .handler(async ({ data: id }) => {
    const { orders, staff, wallet } = await shop();
    const order = await orders.find(id);
    if (!order) throw notFound();
    return {
      order: { id: order.id, name: order.name, status: order.status },
      price: formatPrice(order.amount, order.currency),
      payable: isPayable(order),
      staff: staff.isStaff(getHeader('cookie')),
      mount: MOUNT,
      wallet,
    };
  });

/** The order's page, where the shopper pays and where the service sends them back. */
export const Route = createFileRoute('/orders/$id')({
  loader: ({ params }) => orderPage({ data: params.id }),
  head: ({ params }) => ({ meta: [{ title: `Order ${params.id} · Paymount shop` }] }),
  component: OrderPage,
});

function OrderPage() {
  const { order, price, payable, staff, mount, wallet } = Route.useLoaderData();
  const router = useRouter();
  const invalidate = useCallback(() => void router.invalidate(), [router]);

  return (
    <>
      <h1>Order {order.id}</h1>
      <p>
        {order.name}: {price}
      </p>
      <p id="status" data-status={order.status}>
        {ORDER_STATUS_TEXT[order.status]}
      </p>
      {payable && <OrderPayment mount={mount} orderId={order.id} wallet={wallet} shownStatus={order.status} onSettled={invalidate} />}
      {order.status === 'paid' &&
        (staff ? (
          <form method="post" action={`/orders/${order.id}/refund`}>
            <button type="submit" id="refund">
              Refund in full
            </button>
          </form>
        ) : (
          <p>
            <Link to="/login" search={{ next: `/orders/${order.id}` }}>
              Staff: sign in to refund
            </Link>
          </p>
        ))}
    </>
  );
}
