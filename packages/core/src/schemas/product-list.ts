import { z } from 'zod';
import { productLineItemSchema } from './amount';

export const productListSchema = z.array(productLineItemSchema).min(1, 'must hold at least one item when sent');

interface WithProductList {
  amount: { orderAmount: number };
  productList?: ReadonlyArray<{ amount: number; num: number }> | undefined;
}

/**
 * Adds the rule (docs/service-contract.md#product-list) that the items of `productList` add up to
 * `amount.orderAmount`, to every body that carries both (create-session and
 * direct payment), so an order valid on one path is valid on the other.
 */
export function withProductListSum<S extends z.ZodType<WithProductList>>(schema: S): S {
  return schema.refine((body) => body.productList === undefined || productListTotal(body.productList) === body.amount.orderAmount, {
    message: 'the sum of amount × num over productList must equal amount.orderAmount',
    params: { rule: 'product_list_sum' },
    path: ['productList'],
    // Checked as soon as both sides are readable, so it is reported alongside other issues.
    when: (payload) => productListSumCheckable(payload.value),
  });
}

function productListTotal(items: ReadonlyArray<{ amount: number; num: number }>): number {
  return items.reduce((sum, item) => sum + item.amount * item.num, 0);
}

function productListSumCheckable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { amount, productList } = value as { amount?: unknown; productList?: unknown };
  const orderAmount = (amount as { orderAmount?: unknown } | undefined)?.orderAmount;
  return (
    Number.isSafeInteger(orderAmount) &&
    (productList === undefined ||
      (Array.isArray(productList) &&
        productList.length > 0 &&
        productList.every(
          (item: { amount?: unknown; num?: unknown } | null) =>
            Number.isSafeInteger(item?.amount) && Number.isSafeInteger(item?.num),
        )))
  );
}
