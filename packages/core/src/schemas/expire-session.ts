import * as z from 'zod/mini';
import { compiled } from './compiled';
import { appIdSchema, merchantIdSchema } from './fields';

/** The expire-session request body (POST /v1/checkout/expire-session), the vendor's ExpireCheckoutSessionRequest. */
export const expireCheckoutSessionRequestSchema = compiled(
  z.strictObject({
    appId: appIdSchema,
    merchantId: merchantIdSchema,
    sessionId: z
      .string('must be the sessionId create-session answered')
      .check(z.minLength(1, 'must not be empty'), z.maxLength(64, 'must be at most 64 characters')),
    reason: z.optional(z.string().check(z.minLength(1, 'must not be empty when sent'), z.maxLength(256, 'must be at most 256 characters'))),
  }),
);

export type { ExpireCheckoutSessionRequest } from '../types/requests';
