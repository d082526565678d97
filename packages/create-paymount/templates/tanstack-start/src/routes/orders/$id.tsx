import { followOrderStatus, WalletButton, type WalletResult } from '@paymount/react';
import { createFileRoute, Link, notFound, useRouter } from '@tanstack/react-router';
import { createServerFn } from '@tanstack/react-start';
import { getHeader } from '@tanstack/react-start/server';
import { useEffect, useState } from 'react';
import { formatPrice } from '../../catalog.js';
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

const STATUS_TEXT = {
  pending: 'Awaiting payment.',
  failed: 'The last payment was declined; nothing was charged. You can pay again.',
  paid: 'Paid. Thank you!',
  refunded: 'Refunded.',
} as const;

const RESULT_TEXT: Readonly<Record<WalletResult['outcome'], string>> = {
  paid: 'Payment sent; waiting for the confirmation…',
  pending: 'Payment sent; waiting for the confirmation…',
  declined: 'The payment was declined; nothing was charged. You can try again.',
  closed: 'The wallet was closed; nothing was charged.',
  failed: 'The payment did not go through.',
};

function OrderPage() {
  const { order, price, payable, staff, mount, wallet } = Route.useLoaderData();
  const router = useRouter();
  const [message, setMessage] = useState('');

  // The order is paid when the shop's webhook handler says so: the page's data is loaded again then, to show it.
  useEffect(() => {
    if (!payable) return;
    const shown = order.status;
    const followed = followOrderStatus({ mount, orderId: order.id, until: (state) => !state.payable || (state.status === 'failed' && shown !== 'failed') });
    void followed.done.then((state) => {
      if (state) void router.invalidate();
    });
    return followed.stop;
  }, [mount, order.id, order.status, payable, router]);

  return (
    <>
      <h1>Order {order.id}</h1>
      <p>
        {order.name}: {price}
      </p>
      <p id="status" data-status={order.status}>
        {STATUS_TEXT[order.status]}
      </p>
      {payable && (
        <>
          {/* paymount's checkout route answers this post with a 303 to the service's hosted page. */}
          <form method="post" action={`${mount}/checkout`} id="checkout-form">
            <input type="hidden" name="orderId" value={order.id} />
            <button type="submit" id="checkout">
              Pay on the checkout page
            </button>
          </form>
          <WalletButton
            mount={mount}
            orderId={order.id}
            wallet={wallet}
            id="wallet-pay"
            onReady={(ready) => {
              if (ready !== true) setMessage('The wallet is not available in this browser.');
            }}
            onResult={(result) => setMessage(result.outcome === 'failed' ? `${RESULT_TEXT.failed} ${result.error.message}` : RESULT_TEXT[result.outcome])}
          />
          <p id="payment-message" role="status">
            {message}
          </p>
        </>
      )}
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
