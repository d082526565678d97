import { z } from 'zod';
import { amountSchema } from './amount';
import {
  appIdSchema,
  descriptionSchema,
  merchantIdSchema,
  NOTIFY_URL_MAX,
  referenceOrderIdSchema,
  transactionRequestIdSchema,
} from './fields';
import { callbackUrlSchema, type SchemaContext } from './urls';

/**
 * The wallet token as the wallet API hands it over, forwarded untouched: its
 * content is for the service to decrypt, so only its shape is checked here.
 */
export const walletTokenSchema = z
  .string('must be the wallet token string (paymentMethodData.tokenizationData.token)')
  .min(1, 'must not be empty')
  .max(65_536, 'must be at most 65536 characters');

/**
 * The direct payment body. The spec shows the fields but not their types or
 * lengths; those it shares with create-session follow the same rules, so one
 * order is valid on both paths.
 */
export function createDirectPaymentRequestSchema(context: SchemaContext = {}) {
  return z.strictObject({
    appId: appIdSchema,
    merchantId: merchantIdSchema,
    transactionRequestId: transactionRequestIdSchema,
    referenceOrderId: referenceOrderIdSchema,
    description: descriptionSchema,
    amount: amountSchema,
    paymentMethod: z.literal('WALLET_PAY', 'must be "WALLET_PAY"'),
    cardEncryptedData: walletTokenSchema,
    notifyUrl: callbackUrlSchema(NOTIFY_URL_MAX, context).optional(),
  });
}

export const directPaymentRequestSchema = createDirectPaymentRequestSchema();

export type DirectPaymentRequest = z.infer<typeof directPaymentRequestSchema>;

