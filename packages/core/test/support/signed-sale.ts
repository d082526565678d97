import type { NeutralRequest } from '../../src/entries/http';
import { signWebhook } from '../../src/index';

/** The payload of a successful sale of order-0001: every field the webhook route needs. */
export const sale = (transactionId: string) => ({
  transactionId,
  transactionRequestId: `req-${transactionId}`,
  transactionType: 'SALE',
  transactionStatus: 'S',
  referenceOrderId: 'order-0001',
  amount: { orderAmount: 1250, priceCurrency: 'USD' },
});

/** `payload` as a signed POST /webhook request. */
export function signedDelivery(payload: Record<string, unknown>, secret: string): NeutralRequest {
  const { body, headers } = signWebhook({ payload, secret });
  return { method: 'POST', path: '/webhook', headers, query: {}, readBody: async () => Buffer.from(body) };
}
