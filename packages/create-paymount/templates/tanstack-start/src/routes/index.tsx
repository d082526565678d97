import { createFileRoute } from '@tanstack/react-router';
import { ProductList } from '../product-list.js';

/** The product page: each buy form posts to the server route that places the order (src/routes/orders/index.ts). */
export const Route = createFileRoute('/')({
  head: () => ({ meta: [{ title: 'Shop · Paymount shop' }] }),
  component: Home,
});

function Home() {
  return (
    <>
      <h1>Products</h1>
      <ProductList />
    </>
  );
}
