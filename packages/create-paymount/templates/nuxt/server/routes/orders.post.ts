import { CATALOG } from '../../src/catalog.js';

/** The buy form: the order and its price are made here, from the catalogue, never from the browser. */
export default defineEventHandler(async (event) => {
  const { sku } = await readBody<{ sku?: unknown }>(event);
  const product = CATALOG.find((item) => item.sku === sku);
  if (!product) throw createError({ statusCode: 400, statusMessage: 'That product is not for sale here.' });
  const order = await (await useShop()).orders.create(product);
  return sendRedirect(event, `/orders/${order.id}`, 303);
});
