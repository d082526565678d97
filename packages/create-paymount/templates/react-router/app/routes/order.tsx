import { followOrderStatus, WalletButton, type WalletResult } from '@paymount/react';
import { useEffect, useState } from 'react';
import { data, Form, Link, redirect, useRevalidator } from 'react-router';
import { formatPrice } from '../../src/catalog';
import { isPayable, type OrderStatus } from '../../src/orders';
import { MOUNT, notifyUrlOf } from '../../src/payments';
import { shop } from '../shop.server';
import type { Route } from './+types/order';

const STATUS_TEXT: Readonly<Record<OrderStatus, string>> = {
  pending: 'Awaiting payment.',
  failed: 'The last payment was declined; nothing was charged. You can pay again.',
  paid: 'Paid. Thank you!',
  refunded: 'Refunded.',
};

const RESULT_TEXT: Readonly<Record<WalletResult['outcome'], string>> = {
  paid: 'Payment sent; waiting for the confirmation…',
  pending: 'Payment sent; waiting for the confirmation…',
  declined: 'The payment was declined; nothing was charged. You can try again.',
  closed: 'The wallet was closed; nothing was charged.',
  failed: 'The payment did not go through.',
};

export function meta({ params }: Route.MetaArgs): Route.MetaDescriptors {
  return [{ title: `Order ${params.id} · Paymount shop` }];
}

/** The order's page, where the shopper pays and where the service sends them back. The amount stays the server's. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const { orders, staff, wallet } = (await shop()).services;
  const order = await orders.find(params.id);
  if (!order) throw data('There is no such order in this shop.', 404);
  return {
    order: { id: order.id, name: order.name, status: order.status },
    price: formatPrice(order.amount, order.currency),
    payable: isPayable(order),
    staff: staff.isStaff(request.headers.get('cookie') ?? undefined),
    mount: MOUNT,
    wallet,
  };
}

/** Staff only: the whole payment, through the routes' client. The refund's webhook marks the order refunded. */
export async function action({ params, request }: Route.ActionArgs) {
  const { services, payments } = await shop();
  if (!services.staff.isStaff(request.headers.get('cookie') ?? undefined)) return redirect(`/login?next=/orders/${encodeURIComponent(params.id)}`, 303);
  const order = await services.orders.find(params.id);
  if (order?.status !== 'paid' || order.transactionId === null) return data({ message: 'This order has no payment to refund.' }, 409);
  await payments.paymentRoutes.client.refund({ originalTransactionId: order.transactionId, notifyUrl: notifyUrlOf(services.publicUrl) });
  return redirect(`/orders/${order.id}`, 303);
}

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, price, payable, staff, mount, wallet } = loaderData;
  const [message, setMessage] = useState('');
  const { revalidate } = useRevalidator();

  // The order is paid when the shop's webhook handler says so: the page's data is loaded again then, to show it.
  useEffect(() => {
    if (!payable) return;
    const shown = order.status;
    const following = followOrderStatus({ mount, orderId: order.id, until: (state) => !state.payable || (state.status === 'failed' && shown !== 'failed') });
    void following.done.then((state) => {
      if (state) void revalidate();
    });
    return following.stop;
  }, [mount, order.id, order.status, payable, revalidate]);

  return (
    <>
      <h1>Order {order.id}</h1>
      <p>
        {order.name}: {price}
      </p>
      <p id="status" data-status={order.status}>
        {STATUS_TEXT[order.status]}
      </p>
      {actionData?.message && <p role="alert">{actionData.message}</p>}
      {payable && (
        <>
          {/* A document post: paymount's checkout route answers it with a 303 to the service's hosted page. */}
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
          <Form method="post">
            <button type="submit" id="refund">
              Refund in full
            </button>
          </Form>
        ) : (
          <p>
            <Link to={`/login?next=/orders/${order.id}`}>Staff: sign in to refund</Link>
          </p>
        ))}
    </>
  );
}
