import { formatPrice } from '../../../src/catalog.js';
import { isPayable } from '../../../src/orders.js';
import { MOUNT } from '../../../src/payments.js';

/** The order as its page shows it (app/pages/orders/[id].vue). */
export default defineEventHandler(async (event) => {
  const { orders, staff, wallet } = await useShop();
  const order = await orders.find(getRouterParam(event, 'id') ?? '');
  if (!order) throw createError({ statusCode: 404, statusMessage: 'There is no such order in this shop.' });
  return {
    order: { id: order.id, name: order.name, status: order.status },
    price: formatPrice(order.amount, order.currency),
    payable: isPayable(order),
    staff: staff.isStaff(getRequestHeader(event, 'cookie')),
    mount: MOUNT,
    wallet,
  };
});
