import { z } from 'zod';
import { idField, text } from './fields';

/** The expire-session body of the vendor's SDK (ExpireCheckoutSessionRequest). */
export const expireSessionRules = z.object({
  appId: idField(32),
  merchantId: idField(32),
  sessionId: text(64),
  reason: text(256).optional(),
});

export type ExpireSessionBody = z.infer<typeof expireSessionRules>;
