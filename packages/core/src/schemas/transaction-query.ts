import * as z from 'zod/mini';
import { compiled } from './compiled';
import { appIdSchema, longTransactionRequestIdSchema, merchantIdSchema, transactionIdSchema } from './fields';
import { withExactlyOneOf } from './exactly-one';

/** The query string of GET /v1/transaction/query: the transaction named by exactly one of its ids. */
export const transactionQuerySchema = compiled(
  withExactlyOneOf(
    z.strictObject({
      appId: appIdSchema,
      merchantId: merchantIdSchema,
      transactionId: z.optional(transactionIdSchema),
      transactionRequestId: z.optional(longTransactionRequestIdSchema),
    }),
    'transactionId',
    'transactionRequestId',
    'the transaction to look up',
  ),
);

export type { TransactionQuery } from '../types/requests';
