import { z } from 'zod';
import { amountSchema } from '../schemas/amount';

// Kept apart from payment-request.ts, whose declarations the root entry publishes: a schema's declarations name zod.
/** The rules of buildWalletPaymentRequest's input, which the wallet route's options share. */
export const walletPaymentRequestInputSchema = z.strictObject({
  amount: amountSchema,
  gatewayId: z.string().min(1, 'must not be empty'),
  merchantId: z.string().min(1, 'must not be empty').max(32, 'must be at most 32 characters'),
  allowedCardNetworks: z
    .array(z.string().regex(/^[A-Z_]+$/, 'must be an upper-case wallet network code such as "VISA"'))
    .min(1, 'must list at least one card network')
    .optional(),
  merchantName: z.string().min(1, 'must not be empty').optional(),
  countryCode: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as "US"').optional(),
});
