import * as z from 'zod/mini';
import { compiled } from './compiled';
import { currencyCodeSchema, minorUnitsSchema } from './amount';
import { appIdSchema, merchantIdSchema, transactionRequestIdSchema } from './fields';

/**
 * The terminal sale body (docs/service-contract.md#terminal-sale). The service names only
 * `amount` and `priceCurrency`; the identifiers follow the other endpoints, and
 * further fields pass through unchanged because their contract is not shown.
 */
export const terminalSaleRequestSchema = compiled(
  z
    .looseObject({
      appId: appIdSchema,
      merchantId: merchantIdSchema,
      transactionRequestId: transactionRequestIdSchema,
      amount: minorUnitsSchema,
      priceCurrency: currencyCodeSchema,
    })
    .check(
      z.refine((body) => body.amount > 0, {
        message: 'must be greater than 0',
        params: { rule: 'positive_total' },
        path: ['amount'],
      }),
    ),
);

export type { TerminalSaleRequest } from '../types/requests';
