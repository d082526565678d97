import { createFileRoute } from '@tanstack/react-router';
import { CATALOG, formatPrice } from '../catalog.js';

/**
 * The product page. Each buy form is a plain form, posted to the server route that places the order
 * (src/routes/orders/index.ts): it works before the page has hydrated, and the price is the server's.
 */
export const Route = createFileRoute('/')({
  head: () => ({ meta: [{ title: 'Shop · Paymount shop' }] }),
  component: Home,
});

function Home() {
  return (
    <>
      <h1>Products</h1>
      <ul className="products">
        {CATALOG.map((product) => (
          <li key={product.sku}>
            <h2>{product.name}</h2>
            <p>{formatPrice(product.price, product.currency)}</p>
            <form method="post" action="/orders">
              <input type="hidden" name="sku" value={product.sku} />
              <button type="submit">Buy</button>
            </form>
          </li>
        ))}
      </ul>
    </>
  );
}
