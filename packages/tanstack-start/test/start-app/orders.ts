// "Your own order store" of the README: the Next.js tests' HTTP client of the store the test process keeps (TEST_ORDERS_URL).
export { orders } from '../../../next/test/next-app/orders.js';
