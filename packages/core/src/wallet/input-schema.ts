import * as z from 'zod/mini';
import { amountSchema } from '../schemas/amount';
import { countryCodeSchema, merchantIdSchema } from '../schemas/fields';

// Kept apart from payment-request.ts, whose declarations the root entry publishes: a schema's declarations name zod.
/** The rules of buildWalletPaymentRequest's input, which the wallet route's options share. */
export const walletPaymentRequestInputSchema = z.strictObject({
  amount: amountSchema,
  gatewayId: z.string().check(z.minLength(1, 'must not be empty')),
  merchantId: merchantIdSchema,
  allowedCardNetworks: z.optional(
    z
      .array(z.string().check(z.regex(/^[A-Z_]+$/, 'must be an upper-case wallet network code such as "VISA"')))
      .check(z.minLength(1, 'must list at least one card network')),
  ),
  merchantName: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
  countryCode: z.optional(countryCodeSchema),
});
