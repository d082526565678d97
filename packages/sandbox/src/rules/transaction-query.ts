import { z } from 'zod';
import { idField, text, withTransactionIds } from './fields';

/** The query string of the transaction query (the SDK's QueryRequest): either id, the transactionId winning. */
export const transactionQueryRules = z
  .object({
    appId: idField(32),
    merchantId: idField(32),
    transactionId: text(64).optional(),
    transactionRequestId: text(64).optional(),
  })
  .transform((query, ctx) => withTransactionIds(query, query.transactionId, query.transactionRequestId, ['transactionId', 'transactionRequestId'], ctx));

export type TransactionQuery = z.infer<typeof transactionQueryRules>;
