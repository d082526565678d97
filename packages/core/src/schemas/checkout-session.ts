import { z } from 'zod';
import { amountSchema, productLineItemSchema } from './amount';
import {
  appIdSchema,
  descriptionSchema,
  MERCHANT_RETURN_URL_MAX,
  merchantIdSchema,
  NOTIFY_URL_MAX,
  referenceOrderIdSchema,
  transactionRequestIdSchema,
} from './fields';
import { callbackUrlSchema, type SchemaContext } from './urls';

/**
 * The create-session request body with every rule of the spec's table.
 * Unknown fields are refused: a misspelt `notifyURL` would otherwise be dropped
 * silently and no webhook would ever arrive.
 */
export function createCheckoutSessionRequestSchema(context: SchemaContext = {}) {
  return z
    .strictObject({
      appId: appIdSchema,
      transactionRequestId: transactionRequestIdSchema,
      referenceOrderId: referenceOrderIdSchema,
      merchantId: merchantIdSchema,
      amount: amountSchema,
      description: descriptionSchema,
      productList: z.array(productLineItemSchema).min(1, 'must hold at least one item when sent').optional(),
      collectBillingAddress: z.boolean().optional(),
      collectShippingAddress: z.boolean().optional(),
      merchantReturnUrl: callbackUrlSchema(MERCHANT_RETURN_URL_MAX, context).optional(),
      notifyUrl: callbackUrlSchema(NOTIFY_URL_MAX, context).optional(),
    })
    .refine(
      (body) => body.productList === undefined || productListTotal(body.productList) === body.amount.orderAmount,
      {
        message: 'the sum of amount × num over productList must equal amount.orderAmount',
        params: { rule: 'product_list_sum' },
        path: ['productList'],
        // Checked as soon as both sides are readable, so it is reported alongside other issues.
        when: (payload) => productListSumCheckable(payload.value),
      },
    );
}

/** The strict schema: callback URLs must be public HTTPS. */
export const checkoutSessionRequestSchema = createCheckoutSessionRequestSchema();

export type CheckoutSessionRequest = z.infer<typeof checkoutSessionRequestSchema>;

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
