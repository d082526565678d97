import { z } from 'zod';
import { compile } from 'zod/v4/core';
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
  compile(
    withProductListSum(
      z.strictObject({
        appId: appIdSchema,
        transactionRequestId: transactionRequestIdSchema,
        referenceOrderId: referenceOrderIdSchema,
        merchantId: merchantIdSchema,
        amount: amountSchema,
        description: descriptionSchema,
        productList: productListSchema.optional(),
        collectBillingAddress: z.boolean().optional(),
        collectShippingAddress: z.boolean().optional(),
        merchantReturnUrl: callbackUrlSchema(MERCHANT_RETURN_URL_MAX, context).optional(),
        notifyUrl: callbackUrlSchema(NOTIFY_URL_MAX, context).optional(),
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
