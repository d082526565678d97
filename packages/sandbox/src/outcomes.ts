/** What a charge came to. `reason` is set on every failure. */
export interface ChargeOutcome {
  transactionStatus: 'S' | 'F';
  reason?: { code: string; message: string };
}

/**
 * The sandbox amounts of docs/service-contract.md#sandbox-amounts, matched against the payable total in minor units.
 * 7777 "transaction time-out" is answered promptly as a failed transaction
 * (`F`, reason TRANSACTION_TIMEOUT): the authorisation timed out inside the
 * service, the caller is told so, and nothing is charged. Use the `delay` fault
 * to exercise a client's own time-out instead.
 */
export const SANDBOX_AMOUNTS: Readonly<Record<number, ChargeOutcome>> = {
  8888: { transactionStatus: 'F', reason: { code: 'CARD_DECLINED', message: 'card declined' } },
  8887: { transactionStatus: 'F', reason: { code: 'INSUFFICIENT_BALANCE', message: 'insufficient balance' } },
  7777: { transactionStatus: 'F', reason: { code: 'TRANSACTION_TIMEOUT', message: 'transaction timed out' } },
};

export const ADDITIONAL_3DS_DECLINE: ChargeOutcome = {
  transactionStatus: 'F',
  reason: { code: 'ADDITIONAL_3DS_REQUIRED', message: 'declined as high risk: additional 3DS verification required' },
};

export function outcomeForTotal(payableTotal: number): ChargeOutcome {
  return SANDBOX_AMOUNTS[payableTotal] ?? { transactionStatus: 'S' };
}

/**
 * The refund counterpart, matched against the refund's own total in minor
 * units (after the balance check, so it must fit in what remains refundable):
 * 8888 is declined with `F`, recorded, and refunds nothing.
 */
export const SANDBOX_REFUND_AMOUNTS: Readonly<Record<number, ChargeOutcome>> = {
  8888: { transactionStatus: 'F', reason: { code: 'REFUND_DECLINED', message: 'refund declined' } },
};

export function refundOutcomeForTotal(refundTotal: number): ChargeOutcome {
  return SANDBOX_REFUND_AMOUNTS[refundTotal] ?? { transactionStatus: 'S' };
}
