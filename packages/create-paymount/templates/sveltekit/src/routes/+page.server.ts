import { fail, redirect } from '@sveltejs/kit';
import { CATALOG, formatPrice } from '../catalog.js';
import { shop } from '$lib/server/shop.js';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => ({
	products: CATALOG.map((product) => ({ sku: product.sku, name: product.name, price: formatPrice(product.price, product.currency) }))
});

export const actions = {
	/** The buy form: the order and its price are made here, from the catalogue, never from the browser. */
	buy: async ({ request }) => {
		const sku = (await request.formData()).get('sku');
		const product = CATALOG.find((item) => item.sku === sku);
		if (!product) return fail(400, { message: 'That product is not for sale here.' });
		const order = await shop().orders.create(product);
		redirect(303, `/orders/${order.id}`);
	}
} satisfies Actions;
