import * as z from 'zod/mini';
import { amountSchema } from './amount';
import { compiled } from './compiled';
import { descriptionSchema, referenceOrderIdSchema } from './fields';
import { productListSchema, withProductListSum } from './product-list';

/**
 * The merchant's order by the rules of the payment requests made from it
 * (create-session, direct payment: the same field schemas, and their product
 * list sum), checked before any store sees it: a store must neither keep an
 * amount the service would refuse nor fail on one (a decimal in a bigint
 * column reads as an outage). Its other fields are judged where they are
 * used: `payable` by the guard, `merchantReturnUrl` by the client, whose
 * `localDevelopment` decides what a callback URL may be. Fields of the
 * merchant's own pass.
 */
export const merchantOrderSchema = compiled(
  withProductListSum(
    z.object({
      referenceOrderId: referenceOrderIdSchema,
      amount: amountSchema,
      description: descriptionSchema,
      productList: z.optional(productListSchema),
    }),
  ),
);
