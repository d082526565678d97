import type * as z from 'zod/mini';
import type { Redactor } from '../logger';
import { longTransactionRequestIdSchema, referenceOrderIdSchema } from '../schemas/fields';

/**
 * Attribute names: the OpenTelemetry HTTP semantic conventions where one
 * fits, `paymount.*` for the rest. Values are ids, codes, counts and
 * statuses only: never a request body, a header, an error message or a URL
 * query, so no API key, wallet token, webhook secret or signature can reach
 * an exporter.
 */
export const ATTR = {
  method: 'http.request.method',
  path: 'url.path',
  route: 'http.route',
  statusCode: 'http.response.status_code',
  resendCount: 'http.request.resend_count',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  outcome: 'paymount.outcome',
  attempt: 'paymount.attempt',
  attempts: 'paymount.attempts',
  retryReason: 'paymount.retry.reason',
  serviceCode: 'paymount.service.code',
  serviceTraceId: 'paymount.service.trace_id',
  transactionRequestId: 'paymount.transaction_request_id',
  orderId: 'paymount.order.id',
  referenceOrderId: 'paymount.order.reference_id',
  guardReason: 'paymount.order_guard.reason',
  verification: 'paymount.webhook.verification',
  webhookResult: 'paymount.webhook.result',
  eventType: 'paymount.event.type',
  deliveryId: 'paymount.webhook.delivery_id',
  handlerDuration: 'paymount.webhook.handler.duration',
  jobResult: 'paymount.webhook.job.result',
} as const;

/**
 * A value someone outside chose (the browser's order id, a delivery's unsigned
 * id header), as a span may keep it: cut of every registered secret, then
 * dropped unless it still has the shape of an id, so a token or a secret
 * pasted into the field is never exported.
 */
function idShaped(value: string, rule: z.ZodMiniType<string>, redactor: Redactor): string | undefined {
  const cut = redactor.redactString(value);
  return rule.safeParse(cut).success ? cut : undefined;
}

/** An order id as a span may keep it (the referenceOrderId rule), or undefined. */
export function orderIdAttribute(value: string, redactor: Redactor): string | undefined {
  return idShaped(value, referenceOrderIdSchema, redactor);
}

/** A webhook delivery id as a span may keep it (the service's request-id rule, up to 64 characters), or undefined. */
export function deliveryIdAttribute(value: string, redactor: Redactor): string | undefined {
  return idShaped(value, longTransactionRequestIdSchema, redactor);
}

/** The path without its query: a transaction query carries its ids there, and a metric dimension must stay low-cardinality. */
export function pathOnly(path: string): string {
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/** Where the service is, as the semantic conventions want it on a client span. */
export function serverAttributes(baseUrl: string): Record<string, string | number> {
  const url = new URL(baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { [ATTR.serverAddress]: url.hostname, [ATTR.serverPort]: port };
}
