/** The events a paymount receiver names, as the sandbox's own payloads produce them. */
export const WEBHOOK_EVENTS = ['payment.succeeded', 'payment.failed', 'payment.closed', 'refund.succeeded', 'refund.failed'] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const NAMES: Readonly<Record<string, WebhookEvent>> = {
  'SALE:S': 'payment.succeeded',
  'SALE:F': 'payment.failed',
  'SALE:C': 'payment.closed',
  'REFUND:S': 'refund.succeeded',
  'REFUND:F': 'refund.failed',
};

/** The event a payload reports, for the delivery log; `unknown` for a type and status paymount names no event for. */
export function eventOf(payload: Readonly<Record<string, unknown>>): WebhookEvent | 'unknown' {
  return NAMES[`${String(payload.transactionType)}:${String(payload.transactionStatus)}`] ?? 'unknown';
}
