import * as z from 'zod/mini';
import { compiled } from './compiled';
import { amountSchema } from './amount';
import {
  appIdSchema,
  descriptionSchema,
  MERCHANT_RETURN_URL_MAX,
  merchantIdSchema,
  NOTIFY_URL_MAX,
  referenceOrderIdSchema,
  transactionRequestIdSchema,
} from './fields';
import { productListSchema, withProductListSum } from './product-list';
import { perContext } from './per-context';
import { callbackUrlSchema, type SchemaContext } from './urls';

const checkoutSessionSchemas = perContext((context) =>
  compiled(
    withProductListSum(
      z.strictObject({
        appId: appIdSchema,
        transactionRequestId: transactionRequestIdSchema,
        referenceOrderId: referenceOrderIdSchema,
        merchantId: merchantIdSchema,
        amount: amountSchema,
        description: descriptionSchema,
        productList: z.optional(productListSchema),
        collectBillingAddress: z.optional(z.boolean()),
        collectShippingAddress: z.optional(z.boolean()),
        merchantReturnUrl: z.optional(callbackUrlSchema(MERCHANT_RETURN_URL_MAX, context)),
        notifyUrl: z.optional(callbackUrlSchema(NOTIFY_URL_MAX, context)),
      }),
    ),
  ),
);

/**
 * The create-session request body with every rule of docs/service-contract.md#checkout-session.
 * Unknown fields are refused: a misspelt `notifyURL` would otherwise be dropped
 * silently and no webhook would ever arrive.
 */
export function createCheckoutSessionRequestSchema(context: SchemaContext = {}) {
  return checkoutSessionSchemas(context);
}

/** The strict schema: callback URLs must be public HTTPS. */
export const checkoutSessionRequestSchema = createCheckoutSessionRequestSchema();

export type { CheckoutSessionRequest } from '../types/requests';
