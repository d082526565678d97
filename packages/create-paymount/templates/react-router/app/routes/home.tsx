import { data, Form, redirect } from 'react-router';
import { CATALOG, formatPrice } from '../../src/catalog';
import { shop } from '../shop.server';
import type { Route } from './+types/home';

export function meta(): Route.MetaDescriptors {
  return [{ title: 'Shop · Paymount shop' }];
}

export function loader() {
  return { products: CATALOG.map((product) => ({ sku: product.sku, name: product.name, price: formatPrice(product.price, product.currency) })) };
}

/** The buy form: the order and its price are made here, from the catalogue, never from the browser. */
export async function action({ request }: Route.ActionArgs) {
  const sku = (await request.formData()).get('sku');
  const product = CATALOG.find((item) => item.sku === sku);
  if (!product) return data({ message: 'That product is not for sale here.' }, 400);
  const order = await (await shop()).services.orders.create(product);
  return redirect(`/orders/${order.id}`, 303);
}

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <h1>Products</h1>
      {actionData?.message && <p role="alert">{actionData.message}</p>}
      <ul className="products">
        {loaderData.products.map((product) => (
          <li key={product.sku}>
            <h2>{product.name}</h2>
            <p className="price">{product.price}</p>
            <Form method="post">
              <input type="hidden" name="sku" value={product.sku} />
              <button type="submit">Buy</button>
            </Form>
          </li>
        ))}
      </ul>
    </>
  );
}
