import type { Environment } from '../credentials';
import { SandboxRefusal } from '../envelope';
import type { TransactionQuery } from '../rules/transaction-query';
import type { SandboxState } from '../state';
import { describeTransaction, findTransaction } from '../transactions';

/** GET /v1/transaction/query: a sale (direct, terminal or a hosted session's), or a refund, in its current state. */
export function queryTransaction(state: SandboxState, environment: Environment, query: TransactionQuery): Record<string, unknown> {
  const found = findTransaction(state, environment, query.ids);
  if (!found) throw new SandboxRefusal('T01', `no transaction with this ${'transactionId' in query.ids ? 'transactionId' : 'transactionRequestId'}`);
  return describeTransaction(state, found);
}
