import * as z from 'zod/mini';
import { walletTokenSchema } from '../schemas/direct-payment';

const orderIdSchema = z
  .string('must be the order id, a string')
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(128, 'must be at most 128 characters'));

/**
 * The browser sends only which order to pay. `z.object` drops every other
 * field, so an `amount` or `description` posted by the browser is never read.
 */
export const checkoutRequestSchema = z.object({ orderId: orderIdSchema });

/** The query of GET /wallet/config and GET /status. */
export const orderQuerySchema = z.object({ orderId: orderIdSchema });

const TOKEN_FIELDS = ['protocolVersion', 'signature', 'signedMessage'] as const;

/** Whether `text` is the JSON text of an object carrying the wallet token's string fields. */
function isWalletTokenText(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  return TOKEN_FIELDS.every((field) => typeof (parsed as Record<string, unknown>)[field] === 'string');
}

/**
 * The token as the browser read it from `paymentMethodData.tokenizationData.token`:
 * for `PAYMENT_GATEWAY` tokenization, the JSON text of an object with
 * `protocolVersion`, `signature` and `signedMessage`. Any other string is the
 * browser's mistake, answered 400 here rather than sent on for the service to
 * refuse (which the route could only answer as a service error, 502). The
 * messages never quote the value.
 */
const browserWalletTokenSchema = walletTokenSchema.check(
  z.refine(isWalletTokenText, {
    message: 'must be the wallet token JSON text (an object with protocolVersion, signature and signedMessage)',
    params: { rule: 'wallet_token' },
  }),
);

export const walletPayRequestSchema = z.object({
  orderId: orderIdSchema,
  token: browserWalletTokenSchema,
});
