import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { formatPrice } from '@/catalog';
import { ORDER_STATUS_TEXT } from '@/order-rules';
import { isPayable } from '@/orders';
import { MOUNT } from '@/payments';
import { shop } from '@/shop';
import { OrderPayment } from './order-payment';

export async function generateMetadata({ params }: PageProps<'/orders/[id]'>): Promise<Metadata> {
  return { title: `Order ${(await params).id}` };
}

/**
 * An order's page, where the shopper pays and where the service sends them back: the hosted
 * checkout's form (paymount's checkout route answers 303 to the service's page), the wallet button,
 * and the payment followed until the webhook settles it. Staff see the refund action.
 */
export default async function OrderPage({ params }: PageProps<'/orders/[id]'>) {
  const { id } = await params;
  const { orders, staff, wallet } = await shop();
  const order = await orders.find(id);
  if (!order) notFound();
  const payable = isPayable(order);
  const isStaff = staff.isStaff((await headers()).get('cookie') ?? undefined);
  return (
    <>
      <h1>Order {order.id}</h1>
      <p>
        {order.name}: {formatPrice(order.amount, order.currency)}
      </p>
      <p id="status" data-status={order.status}>
        {ORDER_STATUS_TEXT[order.status]}
      </p>
      {payable && <OrderPayment mount={MOUNT} orderId={order.id} wallet={wallet} shownStatus={order.status} />}
      {order.status === 'paid' &&
        (isStaff ? (
          <form method="post" action={`/orders/${order.id}/refund`}>
            <button type="submit" id="refund">
              Refund in full
            </button>
          </form>
        ) : (
          <p>
            <Link href={`/login?next=/orders/${order.id}`}>Staff: sign in to refund</Link>
          </p>
        ))}
    </>
  );
}
