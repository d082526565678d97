import { CATALOG } from '@/catalog';
import { shop } from '@/shop';

/** The buy form: the order and its price are made here, from the catalogue; then the order's page. */
export async function POST(request: Request) {
  const form = await request.formData();
  const product = CATALOG.find((item) => item.sku === form.get('sku'));
  if (!product) return new Response('That product is not for sale here.', { status: 400 });
  const order = await (await shop()).orders.create(product);
  return new Response(null, { status: 303, headers: { location: `/orders/${order.id}` } });
}
