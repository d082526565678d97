import { z } from 'zod';
import { compile } from 'zod/v4/core';
import { appIdSchema, merchantIdSchema } from './fields';

/** The expire-session request body (POST /v1/checkout/expire-session), the vendor's ExpireCheckoutSessionRequest. */
export const expireCheckoutSessionRequestSchema = compile(
  z.strictObject({
    appId: appIdSchema,
    merchantId: merchantIdSchema,
    sessionId: z
      .string('must be the sessionId create-session answered')
      .min(1, 'must not be empty')
      .max(64, 'must be at most 64 characters'),
    reason: z.string().min(1, 'must not be empty when sent').max(256, 'must be at most 256 characters').optional(),
  }),
);

export type { ExpireCheckoutSessionRequest } from '../types/requests';
