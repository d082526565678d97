import { z } from 'zod';
import { currencyField, ID_PATTERN, idField, minorUnits, notifyUrlField, text, withTransactionIds } from './fields';

const REFUND_PARTS = ['orderAmount', 'taxAmount', 'surchargeAmount', 'tipAmount'] as const;

/** The refund amount (the SDK's OnlineRefundAmount): `priceCurrency` required, every part optional. */
const refundAmountObject = z
  .object(
    {
      priceCurrency: currencyField,
      totalAmount: minorUnits.optional(),
      orderAmount: minorUnits.optional(),
      taxAmount: minorUnits.optional(),
      surchargeAmount: minorUnits.optional(),
      tipAmount: minorUnits.optional(),
    },
    { error: 'must be an object' },
  )
  .superRefine((amount, ctx) => {
    const sum = refundPartsTotal(amount);
    if (amount.totalAmount !== undefined && amount.totalAmount !== sum) {
      ctx.addIssue({
        code: 'custom',
        path: ['totalAmount'],
        message: `(${amount.totalAmount}) must equal orderAmount + taxAmount + surchargeAmount + tipAmount (${sum})`,
        params: { code: 'V12' },
      });
    }
    if (sum <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'refund total (orderAmount + taxAmount + surchargeAmount + tipAmount) must be greater than 0',
        params: { code: 'V06' },
      });
    }
    if (!Number.isSafeInteger(sum)) {
      ctx.addIssue({ code: 'custom', message: 'refund total exceeds the safe integer range', params: { code: 'V05' } });
    }
  });

export type RefundAmountBody = z.infer<typeof refundAmountObject>;

/** The sum of the parts sent, the ones not sent counting 0. */
export function refundPartsTotal(amount: Partial<Record<(typeof REFUND_PARTS)[number], number>>): number {
  return REFUND_PARTS.reduce((total, part) => total + (amount[part] ?? 0), 0);
}

/**
 * The refund body of the vendor's SDK (OnlineRefundRequest): the refund's own
 * transactionRequestId (up to 64), the original named by either id, and an
 * optional amount (none: the whole remaining balance).
 */
export function refundRules(allowLocalNotifyUrl: boolean) {
  return z
    .object({
      appId: idField(32),
      merchantId: idField(32),
      transactionRequestId: text(64).regex(ID_PATTERN, { error: 'must match ^[A-Za-z0-9_\\-]+$' }),
      originalTransactionId: text(64).optional(),
      originalTransactionRequestId: text(64).optional(),
      amount: refundAmountObject.optional(),
      description: text(128).optional(),
      attach: text(512).optional(),
      notifyUrl: notifyUrlField(allowLocalNotifyUrl).optional(),
    })
    .transform((body, ctx) =>
      withTransactionIds(body, body.originalTransactionId, body.originalTransactionRequestId, ['originalTransactionId', 'originalTransactionRequestId'], ctx),
    );
}

export type RefundBody = z.infer<ReturnType<typeof refundRules>>;
