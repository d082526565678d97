import type { APIRoute } from 'astro';
import { CATALOG } from '../../catalog.js';

/** The buy form: the order and its price are made here, from the catalogue, never from the browser. */
export const POST: APIRoute = async ({ request, locals, redirect }) => {
  const sku = (await request.formData()).get('sku');
  const product = CATALOG.find((item) => item.sku === sku);
  if (!product) return new Response('That product is not for sale here.', { status: 400 });
  const order = await locals.shop.orders.create(product);
  return redirect(`/orders/${order.id}`, 303);
};
