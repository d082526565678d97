import { data, Form, Link, redirect, useRevalidator } from 'react-router';
import { formatPrice } from '../../src/catalog';
import { OrderPayment } from '../../src/order-payment';
import { ORDER_STATUS_TEXT } from '../../src/order-rules';
import { isPayable } from '../../src/orders';
import { MOUNT, notifyUrlOf } from '../../src/payments';
import { shop } from '../shop.server';
import type { Route } from './+types/order';

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
  const { revalidate } = useRevalidator();

  return (
    <>
      <h1>Order {order.id}</h1>
      <p>
        {order.name}: {price}
      </p>
      <p id="status" data-status={order.status}>
        {ORDER_STATUS_TEXT[order.status]}
      </p>
      {actionData?.message && <p role="alert">{actionData.message}</p>}
      {payable && <OrderPayment mount={mount} orderId={order.id} wallet={wallet} shownStatus={order.status} onSettled={revalidate} />}
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
