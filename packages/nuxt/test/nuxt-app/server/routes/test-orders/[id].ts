import { defineEventHandler, getRouterParam, readBody } from 'h3';
import { orders } from '../../utils/orders';

// The quick-start test's window into the shop's order store (test/quick-start.test.ts): POST adds an order of
// `totalCents`, GET reads it back with what the README's webhook handlers did to it.
export default defineEventHandler(async (event) => {
  const id = getRouterParam(event, 'id') ?? '';
  if (event.method === 'POST') return orders.add(id, (await readBody<{ totalCents: number }>(event)).totalCents);
  return (await orders.find(id)) ?? null;
});
