import { describe, expect, it } from 'vitest';
import {
  PaymentApiError,
  PaymentError,
  PaymentNetworkError,
  PaymentNotFoundError,
  PaymentRateLimitError,
  PaymentResponseError,
  PaymentStoreUnavailableError,
  PaymentTimeoutError,
  PaymentValidationError,
  WebhookVerificationError,
} from '../src/errors';
import { createRedactingLogger, Redactor, type Logger } from '../src/logger';
import { errorToResponse } from '../src/routes/errors-to-response';
import { PaymentRouteError } from '../src/routes/route-error';

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const write = (obj: object | string, msg?: string) => void lines.push(JSON.stringify([obj, msg]));
  return { logger: { debug: write, info: write, warn: write, error: write }, lines };
}

const answer = (error: unknown, logger = capture().logger) => {
  const response = errorToResponse(error, logger);
  return { status: response.status, headers: response.headers, body: JSON.parse(response.body) as { error: Record<string, unknown> } };
};

describe('errorToResponse', () => {
  it.each([
    [new PaymentValidationError('checkout request', [{ path: 'orderId', rule: 'required', message: 'is required' }]), 400, 'VALIDATION_ERROR'],
    [new PaymentRouteError(404, 'ORDER_NOT_FOUND', 'No order.'), 404, 'ORDER_NOT_FOUND'],
    [new PaymentRouteError(415, 'UNSUPPORTED_MEDIA_TYPE', 'No.'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [new WebhookVerificationError('bad_signature', 'Bad.'), 400, 'WEBHOOK_BAD_SIGNATURE'],
    [new WebhookVerificationError('body_too_large', 'Too big: 5 bytes.'), 413, 'BODY_TOO_LARGE'],
    [new WebhookVerificationError('body_already_parsed', 'Mount it first.'), 500, 'WEBHOOK_BODY_ALREADY_PARSED'],
    [new PaymentRateLimitError('limited', { traceId: 't1' }), 429, 'SERVICE_RATE_LIMITED'],
    [new PaymentApiError('refused', { serviceCode: 'E07', traceId: 't2', msg: 'bad merchant' }), 502, 'SERVICE_REFUSED'],
    [new PaymentNotFoundError('no such transaction', { serviceCode: 'T01', traceId: 't3' }), 502, 'SERVICE_NOT_FOUND'],
    [new PaymentResponseError('not json'), 502, 'MALFORMED_RESPONSE'],
    [new PaymentNetworkError('refused'), 502, 'NETWORK_ERROR'],
    [new PaymentTimeoutError('slow'), 504, 'TIMEOUT'],
    [new PaymentStoreUnavailableError('Redis is down.'), 503, 'STORE_UNAVAILABLE'],
    [new PaymentError('The payment client is closed', { code: 'CLIENT_CLOSED' }), 500, 'INTERNAL_ERROR'],
    [new Error('boom'), 500, 'INTERNAL_ERROR'],
    ['a thrown string', 500, 'INTERNAL_ERROR'],
  ])('%s → %i %s', (error, status, code) => {
    const { status: got, body } = answer(error);
    expect(got).toBe(status);
    expect(body.error.code).toBe(code);
    expect(Object.keys(body)).toEqual(['error']);
  });

  it('keeps the traceId and turns Retry-After into whole seconds', () => {
    const { headers, body } = answer(new PaymentRateLimitError('limited', { traceId: 't1', retryAfterMs: 1_200 }));
    expect(headers['retry-after']).toBe('2');
    expect(body.error.traceId).toBe('t1');
  });

  it('never answers the message of an unexpected error, but logs it through the redacting logger', () => {
    const { logger, lines } = capture();
    const redactor = new Redactor();
    redactor.addSecret('sk_live_do_not_leak_123');
    const response = errorToResponse(new Error('db failed for key sk_live_do_not_leak_123'), createRedactingLogger(logger, redactor));
    expect(response.body).toBe(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' } }));
    expect(lines.join('\n')).toContain('db failed for key [REDACTED]');
    expect(lines.join('\n')).toContain('errors-to-response.test.ts'); // the stack, to find where it failed
    expect(lines.join('\n')).not.toContain('sk_live_do_not_leak_123');
  });

  it('answers service errors with its own wording, not the service message', () => {
    const { body } = answer(new PaymentApiError('service said: merchant 42 misconfigured', { serviceCode: 'E07', msg: 'merchant 42 misconfigured' }));
    expect(body.error.message).toBe('The payment service refused the request.');
  });
});
