import { z } from 'zod';
import {
  amountObject,
  idField,
  notifyUrlField,
  referenceOrderIdField,
  text,
  transactionRequestIdField,
} from './fields';

/**
 * The direct payment body (docs/service-contract.md#direct-payment). The service lists the fields without types, lengths or
 * required flags; the sandbox applies the create-session rules to the fields of
 * the same name, requires everything a charge cannot do without, and keeps
 * `description` and `notifyUrl` optional.
 */
export function directPaymentRules(allowLocalNotifyUrl: boolean) {
  return z.object({
    appId: idField(32),
    merchantId: idField(32),
    transactionRequestId: transactionRequestIdField,
    referenceOrderId: referenceOrderIdField,
    description: text(128).optional(),
    amount: amountObject,
    paymentMethod: z
      .string({ error: 'must be a string' })
      .refine((method) => method === 'WALLET_PAY', { message: 'must be WALLET_PAY', params: { code: 'V11' } }),
    cardEncryptedData: text(65_536),
    notifyUrl: notifyUrlField(allowLocalNotifyUrl).optional(),
  });
}

export type DirectPaymentBody = z.infer<ReturnType<typeof directPaymentRules>>;
