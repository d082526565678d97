import { createServerFileRoute } from '@tanstack/react-start/server';
import { CATALOG } from '../../catalog.js';
import { shop } from '../../shop.js';

/** The buy form: the order and its price are made here, from the catalogue; then the order's page. */
export const ServerRoute = createServerFileRoute('/orders/').methods({
  POST: async ({ request }) => {
    const form = await request.formData();
    const product = CATALOG.find((item) => item.sku === form.get('sku'));
    if (!product) return new Response('That product is not for sale here.', { status: 400 });
    const order = await (await shop()).orders.create(product);
    return new Response(null, { status: 303, headers: { location: `/orders/${order.id}` } });
  },
});
