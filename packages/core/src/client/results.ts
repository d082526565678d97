import { z } from 'zod';
import { PaymentResponseError } from '../errors';
import type { SchemaContext } from '../schemas/urls';
import { parseExpiresAt } from '../session';
import { paymentStatusOf } from '../transaction-status';
import type { CallOutcome } from './call';
import type { CheckoutSession, PaymentResult } from './types';

/**
 * The checkoutUrl becomes the shopper's redirect: HTTPS only, plain HTTP only
 * in local development (a sandbox on this machine).
 */
const checkoutSessionDataSchema = (protocol: RegExp, error: string) =>
  z.looseObject({
    checkoutUrl: z.url({ protocol, error }),
    expiresAt: z.union([z.string(), z.number()]).optional(),
    sessionId: z.union([z.string(), z.number()]).optional(),
  });
const sessionDataSchemas = {
  https: checkoutSessionDataSchema(/^https$/, 'must be an https URL (plain http only with localDevelopment)'),
  local: checkoutSessionDataSchema(/^https?$/, 'must be an http(s) URL'),
};

const paymentDataSchema = z.looseObject({
  transactionStatus: z.string().optional(),
  transactionId: z.union([z.string(), z.number()]).optional(),
});

type Answered = Extract<CallOutcome, { kind: 'answered' }>;

export function toCheckoutSession(
  outcome: Answered,
  path: string,
  transactionRequestId: string,
  context: SchemaContext = {},
): CheckoutSession {
  const data = parseData(context.localDevelopment ? sessionDataSchemas.local : sessionDataSchemas.https, outcome, path);
  return {
    checkoutUrl: data.checkoutUrl,
    expiresAt: parseExpiresAt(data.expiresAt, outcome.receivedAt),
    ...(data.sessionId === undefined ? {} : { sessionId: String(data.sessionId) }),
    transactionRequestId,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
  };
}

/** Direct and terminal sales: an answered call maps its transactionStatus; an unknown outcome is pending, never failed. */
export function toPaymentResult(outcome: CallOutcome, path: string, transactionRequestId: string): PaymentResult {
  if (outcome.kind === 'unknown') {
    return {
      status: 'pending',
      transactionRequestId,
      ...(outcome.error.traceId === undefined ? {} : { traceId: outcome.error.traceId }),
      outcomeUnknown: true,
    };
  }
  const data = parseData(paymentDataSchema, outcome, path);
  return {
    status: paymentStatusOf(data.transactionStatus),
    ...(data.transactionStatus === undefined ? {} : { transactionStatus: data.transactionStatus }),
    ...(data.transactionId === undefined ? {} : { transactionId: String(data.transactionId) }),
    transactionRequestId,
    traceId: outcome.envelope.traceId,
    raw: outcome.envelope,
    outcomeUnknown: false,
  };
}

function parseData<S extends z.ZodType>(schema: S, outcome: Answered, path: string): z.output<S> {
  const parsed = schema.safeParse(outcome.envelope.data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `data.${issue.path.join('.')} ${issue.message}`).join('; ');
  throw new PaymentResponseError(`POST ${path} succeeded but its data is unusable: ${problems}`, {
    code: 'MALFORMED_RESPONSE',
    traceId: outcome.envelope.traceId,
    httpStatus: outcome.httpStatus,
  });
}
