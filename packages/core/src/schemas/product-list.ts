import * as z from 'zod/mini';
import { productLineItemSchema } from './amount';

// An empty list aborts: its sum (0) says nothing about orderAmount.
export const productListSchema = z.array(productLineItemSchema).check(z.minLength(1, { message: 'must hold at least one item when sent', abort: true }));

interface WithProductList {
  amount: { orderAmount: number };
  productList?: ReadonlyArray<{ amount: number; num: number }> | undefined;
}

/**
 * Adds the rule (docs/service-contract.md#product-list) that the items of `productList` add up to
 * `amount.orderAmount`, to every body that carries both (create-session and
 * direct payment), so an order valid on one path is valid on the other.
 * Unknown fields, text and URL issues do not abort, so the sum is reported
 * alongside them; an unreadable amount or item does, and skips it.
 */
export function withProductListSum<S extends z.ZodMiniType<WithProductList>>(schema: S): S {
  return schema.check(
    z.refine((body: WithProductList) => body.productList === undefined || productListTotal(body.productList) === body.amount.orderAmount, {
      message: 'the sum of amount × num over productList must equal amount.orderAmount',
      params: { rule: 'product_list_sum' },
      path: ['productList'],
    }),
  );
}

function productListTotal(items: ReadonlyArray<{ amount: number; num: number }>): number {
  return items.reduce((sum, item) => sum + item.amount * item.num, 0);
}
