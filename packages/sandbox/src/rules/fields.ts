import { z } from 'zod';
import { isKnownCurrency } from '../currency';
import { localFix } from '../local-fix';
import type { TransactionIds } from '../ledger';
import { isPublicHttpsUrl, isHttpUrl } from '../webhooks/notify-url';

/**
 * Field rules of docs/service-contract.md#fields-and-rules, written apart from the client's
 * schemas (not shared with them) so that the client and the sandbox cannot
 * share a mistake.
 */

export const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const ORDER_ID_PATTERN = /^[A-Za-z0-9_\-|*]+$/;

/** A string of at most `max` characters (and at least `min`, default 1). */
export function text(max: number, min = 1) {
  const range = min > 1 ? `must be ${min} to ${max} characters` : `must be 1 to ${max} characters`;
  return z.string({ error: 'must be a string' }).min(min, { error: range }).max(max, { error: range });
}

export const idField = (max: number) => text(max);
export const transactionRequestIdField = text(32).regex(ID_PATTERN, { error: 'must match ^[A-Za-z0-9_\\-]+$' });
export const referenceOrderIdField = text(32, 6).regex(ORDER_ID_PATTERN, { error: 'must match ^[A-Za-z0-9_\\-|*]+$' });

export const minorUnits = z
  .number({ error: 'must be an integer in the smallest currency unit' })
  .int({ error: 'must be an integer in the smallest currency unit (no decimals)' })
  .min(0, { error: 'must not be negative' });

export const currencyField = z
  .string({ error: 'must be a string' })
  .refine(isKnownCurrency, { message: 'must be an active ISO 4217 currency code such as USD (not a withdrawn, precious-metal or testing code)', params: { code: 'V07' } });

/** orderAmount and priceCurrency required; taxAmount and surchargeAmount optional (0); payable total > 0. */
export const amountObject = z
  .object(
    {
      orderAmount: minorUnits,
      taxAmount: minorUnits.optional(),
      surchargeAmount: minorUnits.optional(),
      priceCurrency: currencyField,
    },
    { error: 'must be an object' },
  )
  .superRefine((amount, ctx) => {
    if (payableTotal(amount) <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'payable total (orderAmount + taxAmount + surchargeAmount) must be greater than 0',
        params: { code: 'V06' },
      });
    }
    if (!Number.isSafeInteger(payableTotal(amount))) {
      ctx.addIssue({ code: 'custom', message: 'payable total exceeds the safe integer range', params: { code: 'V05' } });
    }
  });

export type Amount = z.infer<typeof amountObject>;

export function payableTotal(amount: { orderAmount: number; taxAmount?: number | undefined; surchargeAmount?: number | undefined }): number {
  return amount.orderAmount + (amount.taxAmount ?? 0) + (amount.surchargeAmount ?? 0);
}

export const productLineItem = z.object(
  {
    amount: minorUnits,
    name: text(128),
    num: z
      .number({ error: 'must be an integer quantity' })
      .int({ error: 'must be an integer quantity' })
      .min(1, { error: 'must be at least 1' }),
  },
  { error: 'must be an object' },
);

export function urlField(max: number) {
  return text(max).refine(isHttpUrl, { message: 'must be an absolute http(s) URL', params: { code: 'V09' } });
}

/** notifyUrl: max 200, and public HTTPS unless the sandbox allows local development URLs. */
export function notifyUrlField(allowLocal: boolean) {
  return urlField(200).refine((url) => isPublicHttpsUrl(url, allowLocal), {
    message: allowLocal
      ? 'must be a public HTTPS URL (or http(s)://localhost / 127.0.0.1 for local development)'
      : // The refusal a local app meets first: it says how to let this sandbox accept the app's local URL.
        `must be a public HTTPS URL${localFix('start it with `startSandbox({ allowLocalNotifyUrl: true })` (CLI: --allow-local-notify-url)')}`,
    params: { code: 'V10' },
  });
}

export const booleanField = z.boolean({ error: 'must be a boolean' });

/**
 * A transaction named by either of two ids, as the vendor's SDK documents it:
 * one is required (V01 on the first field otherwise) and the transaction id wins
 * when both are sent. Adds the one that counts to the body as `ids`.
 */
export function withTransactionIds<T>(
  body: T,
  transactionId: string | undefined,
  transactionRequestId: string | undefined,
  fields: readonly [string, string],
  ctx: z.RefinementCtx,
): T & { ids: TransactionIds } {
  if (transactionId !== undefined) return { ...body, ids: { transactionId } };
  if (transactionRequestId !== undefined) return { ...body, ids: { transactionRequestId } };
  ctx.addIssue({ code: 'custom', path: [fields[0]], message: `is required (or ${fields[1]})`, params: { code: 'V01' } });
  return z.NEVER;
}
