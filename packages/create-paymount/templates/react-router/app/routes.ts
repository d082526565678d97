import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('orders/:id', 'routes/order.tsx'),
  route('login', 'routes/login.tsx'),
  // paymount's routes: checkout, wallet, status and the webhook.
  route('payments/*', 'routes/payments.$.ts'),
] satisfies RouteConfig;
