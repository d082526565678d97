import { CATALOG, formatPrice } from './catalog.js';

/**
 * The catalogue, each product with a buy form: a plain form posted to the route that places the
 * order (`/orders`), so it works before any script has loaded, and the price is the server's.
 */
export function ProductList() {
  return (
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
  );
}
