import { z } from 'zod';
import { currencyField, idField, transactionRequestIdField } from './fields';

/**
 * The terminal sale body (docs/service-contract.md#terminal-sale). The service asks only for
 * an amount and a priceCurrency; the sandbox reads `amount` as the payable total in minor
 * units, requires the identifiers every other endpoint carries, and ignores
 * further (terminal-specific) fields.
 */
export const terminalSaleRules = z.object({
  appId: idField(32),
  merchantId: idField(32),
  transactionRequestId: transactionRequestIdField,
  amount: z
    .number({ error: 'must be an integer in the smallest currency unit' })
    .int({ error: 'must be an integer in the smallest currency unit (no decimals)' })
    .min(1, { error: 'must be greater than 0' }),
  priceCurrency: currencyField,
});

export type TerminalSaleBody = z.infer<typeof terminalSaleRules>;
