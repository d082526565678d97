import { z } from 'zod';
import { walletTokenSchema } from '../schemas/direct-payment';

const orderIdSchema = z
  .string('must be the order id, a string')
  .trim()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters');

/**
 * The browser sends only which order to pay. `z.object` drops every other
 * field, so an `amount` or `description` posted by the browser is never read.
 */
export const checkoutRequestSchema = z.object({ orderId: orderIdSchema });

export const walletConfigQuerySchema = z.object({ orderId: orderIdSchema });

export const walletPayRequestSchema = z.object({
  orderId: orderIdSchema,
  // The client's own token rule: its messages never quote the value.
  token: walletTokenSchema,
});
