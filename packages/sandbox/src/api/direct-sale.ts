import { chargeResult, notifyCharge, recordCharge } from '../charging';
import type { Environment } from '../credentials';
import { ADDITIONAL_3DS_DECLINE, outcomeForTotal } from '../outcomes';
import type { DirectPaymentBody } from '../rules/direct-payment';
import { payableTotal } from '../rules/fields';
import type { SandboxState } from '../state';
import { openWalletToken } from '../wallet-token';

/**
 * POST /v1/checkout/sale: opens the wallet token, charges once and answers
 * `transactionStatus` S or F. A repeated transactionRequestId is answered with
 * the first result without touching the token or the ledger again.
 */
export function directSale(state: SandboxState, environment: Environment, body: DirectPaymentBody): Record<string, unknown> {
  const first = state.ledger.recall(environment, body.transactionRequestId, 'direct-sale');
  if (first) return first;
  const token = openWalletToken(
    state.walletKeys,
    body.cardEncryptedData,
    { gatewayId: state.credentials.gatewayId, merchantId: state.credentials.merchantId },
    state.clock.now(),
  );
  const outcome = token.paymentMethodDetails.additional3dsRequired ? ADDITIONAL_3DS_DECLINE : outcomeForTotal(payableTotal(body.amount));
  const charge = recordCharge(state, {
    channel: 'direct',
    environment,
    transactionRequestId: body.transactionRequestId,
    referenceOrderId: body.referenceOrderId,
    amount: body.amount,
    outcome,
    ...(body.description === undefined ? {} : { description: body.description }),
    authMethod: token.paymentMethodDetails.authMethod,
  });
  const data = { ...chargeResult(charge), paymentMethod: 'WALLET_PAY' };
  state.ledger.remember(environment, body.transactionRequestId, 'direct-sale', data);
  notifyCharge(state, body.notifyUrl, charge);
  return data;
}
