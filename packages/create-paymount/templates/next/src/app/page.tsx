import { ProductList } from '@/product-list';

/** The product page: each buy form posts to the route that places the order (app/orders/route.ts). */
export default function Home() {
  return (
    <>
      <h1>Products</h1>
      <ProductList />
    </>
  );
}
