import { error, fail, redirect } from '@sveltejs/kit';
import { formatPrice } from '../../../catalog.js';
import { isPayable } from '../../../orders.js';
import { MOUNT, notifyUrlOf } from '../../../payments.js';
import { payments, shop } from '$lib/server/shop.js';
import type { Actions, PageServerLoad } from './$types';

/** The order's page, where the shopper pays and where the service sends them back. */
export const load: PageServerLoad = async ({ params, request }) => {
	const { orders, staff, wallet } = shop();
	const order = await orders.find(params.id);
	if (!order) error(404, 'There is no such order in this shop.');
	return {
		order: { id: order.id, name: order.name, status: order.status },
		price: formatPrice(order.amount, order.currency),
		payable: isPayable(order),
		staff: staff.isStaff(request.headers.get('cookie') ?? undefined),
		mount: MOUNT,
		wallet
	};
};

export const actions = {
	/** Staff only: the whole payment, through the routes' client. The refund's webhook marks the order refunded. */
	refund: async ({ params, request }) => {
		const { orders, staff, publicUrl } = shop();
		if (!staff.isStaff(request.headers.get('cookie') ?? undefined)) redirect(303, `/login?next=/orders/${encodeURIComponent(params.id)}`);
		const order = await orders.find(params.id);
		if (order?.status !== 'paid' || order.transactionId === null) return fail(409, { message: 'This order has no payment to refund.' });
		const { client } = await payments.getPaymentRoutes();
		await client.refund({ originalTransactionId: order.transactionId, notifyUrl: notifyUrlOf(publicUrl) });
		redirect(303, `/orders/${order.id}`);
	}
} satisfies Actions;
