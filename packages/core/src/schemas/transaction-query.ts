import { z } from 'zod';
import { compile } from 'zod/v4/core';
import { appIdSchema, longTransactionRequestIdSchema, merchantIdSchema, transactionIdSchema } from './fields';
import { withExactlyOneOf } from './exactly-one';

/** The query string of GET /v1/transaction/query: the transaction named by exactly one of its ids. */
export const transactionQuerySchema = compile(
  withExactlyOneOf(
    z.strictObject({
      appId: appIdSchema,
      merchantId: merchantIdSchema,
      transactionId: transactionIdSchema.optional(),
      transactionRequestId: longTransactionRequestIdSchema.optional(),
    }),
    'transactionId',
    'transactionRequestId',
    'the transaction to look up',
  ),
);

export type { TransactionQuery } from '../types/requests';
