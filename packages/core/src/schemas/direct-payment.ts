import * as z from 'zod/mini';
import { compiled } from './compiled';
import { checkoutAddressSchema } from './address';
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

/**
 * The wallet token as the wallet API hands it over, forwarded untouched: its
 * content is for the service to decrypt, so only its shape is checked here.
 */
export const walletTokenSchema = z
  .string('must be the wallet token string (paymentMethodData.tokenizationData.token)')
  .check(z.minLength(1, 'must not be empty'), z.maxLength(65_536, 'must be at most 65536 characters'));

const directPaymentSchemas = perContext((context) =>
  compiled(
    withProductListSum(
      z.strictObject({
        appId: appIdSchema,
        merchantId: merchantIdSchema,
        transactionRequestId: transactionRequestIdSchema,
        referenceOrderId: referenceOrderIdSchema,
        description: descriptionSchema,
        amount: amountSchema,
        productList: z.optional(productListSchema),
        paymentMethod: z.literal('WALLET_PAY', 'must be "WALLET_PAY"'),
        cardEncryptedData: walletTokenSchema,
        customerEmail: z.optional(z.email('must be an email address').check(z.maxLength(254, 'must be at most 254 characters'))),
        customerName: z.optional(
          z.string().check(z.minLength(1, 'must not be empty when sent'), z.maxLength(128, 'must be at most 128 characters')),
        ),
        billingAddress: z.optional(checkoutAddressSchema),
        shippingAddress: z.optional(checkoutAddressSchema),
        notifyUrl: z.optional(callbackUrlSchema(NOTIFY_URL_MAX, context)),
        merchantReturnUrl: z.optional(callbackUrlSchema(MERCHANT_RETURN_URL_MAX, context)),
      }),
    ),
  ),
);

/**
 * The direct payment body (docs/service-contract.md#direct-payment). The service shows the fields
 * but not their types or lengths; those it shares with create-session follow
 * the same rules, so one order is valid on both paths. The optional customer
 * fields are the vendor's.
 */
export function createDirectPaymentRequestSchema(context: SchemaContext = {}) {
  return directPaymentSchemas(context);
}

export const directPaymentRequestSchema = createDirectPaymentRequestSchema();

export type { DirectPaymentRequest } from '../types/requests';
