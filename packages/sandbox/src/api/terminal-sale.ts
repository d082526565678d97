import { chargeResult, recordCharge } from '../charging';
import type { Environment } from '../credentials';
import { outcomeForTotal } from '../outcomes';
import type { TerminalSaleBody } from '../rules/terminal-sale';
import type { SandboxState } from '../state';

/** POST /v1/semi-integration/transaction/sale: the sandbox amounts apply to `amount`; idempotent like the other sales. */
export function terminalSale(state: SandboxState, environment: Environment, body: TerminalSaleBody): Record<string, unknown> {
  const first = state.ledger.recall(environment, body.transactionRequestId, 'terminal-sale');
  if (first) return first;
  const amount = { orderAmount: body.amount, priceCurrency: body.priceCurrency };
  const charge = recordCharge(state, {
    channel: 'terminal',
    environment,
    transactionRequestId: body.transactionRequestId,
    amount,
    outcome: outcomeForTotal(body.amount),
  });
  const data = chargeResult(charge);
  state.ledger.remember(environment, body.transactionRequestId, 'terminal-sale', data);
  return data;
}
