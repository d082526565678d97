import { describe, expect, it } from 'vitest';
import { createRedactingLogger, type Logger, PaymentApiError, PaymentError, PaymentNetworkError, PaymentNotFoundError, PaymentRateLimitError, PaymentResponseError, PaymentRouteError, PaymentStoreUnavailableError, PaymentTimeoutError, PaymentValidationError, WebhookVerificationError } from '../src/index';
import { clockFix, errorToAnswer, MOUNTING_ORDER_FIX, Redactor } from '../src/entries/internal';

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const write = (obj: object | string, msg?: string) => void lines.push(JSON.stringify([obj, msg]));
  return { logger: { debug: write, info: write, warn: write, error: write }, lines };
}

const answer = (error: unknown, logger = capture().logger) => {
  const { response, outcome } = errorToAnswer(error, logger);
  return { status: response.status, headers: response.headers, body: JSON.parse(response.body) as { error: Record<string, unknown> }, outcome };
};

describe('errorToAnswer', () => {
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
    const { status: got, body, outcome } = answer(error);
    expect(got).toBe(status);
    expect(body.error.code).toBe(code);
    expect(Object.keys(body)).toEqual(['error']);
    // Telemetry reads the code from the outcome, never from the body.
    expect(outcome).toEqual({ errorCode: code });
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
    const { response } = errorToAnswer(new Error('db failed for key sk_live_do_not_leak_123'), createRedactingLogger(logger, redactor));
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

describe('the log line of a route failure', () => {
  type Line = { level: string; fields: Record<string, unknown>; msg: string | undefined };
  const logOf = (error: unknown, context: { method?: string; path?: string; clockFix?: string; consumedBodyFix?: string } = {}): Line => {
    const lines: Line[] = [];
    const write = (level: string) => (fields: object | string, msg?: string) =>
      void lines.push({ level, fields: typeof fields === 'string' ? {} : (fields as Record<string, unknown>), msg });
    errorToAnswer(error, { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }, context);
    expect(lines).toHaveLength(1);
    return lines[0]!;
  };

  it.each([
    ['a 5xx', 'error', new PaymentApiError('refused with code W02', { serviceCode: 'W02' }), '/wallet/pay'],
    ['a refused webhook delivery', 'warn', new WebhookVerificationError('bad_signature', 'Bad.'), '/webhook'],
    ['an oversize webhook delivery', 'warn', new PaymentRouteError(413, 'BODY_TOO_LARGE', 'Too large.'), '/webhook'],
    ['a rate limit of the service', 'warn', new PaymentRateLimitError('limited', {}), '/checkout'],
    ['a refusal with a known fix', 'warn', new PaymentRouteError(403, 'CROSS_SITE_FORM_POST', 'No.', { fix: 'list it in allowedOrigins' }), '/checkout'],
    ["a shopper's unknown order", 'info', new PaymentRouteError(404, 'ORDER_NOT_FOUND', 'No order.'), '/checkout'],
    ["a shopper's invalid input", 'info', new PaymentValidationError('checkout request', [{ path: 'orderId', rule: 'required', message: 'is required' }]), '/checkout'],
  ])('%s is logged once, at level %s', (_label, level, error, path) => {
    expect(logOf(error, { method: 'POST', path }).level).toBe(level);
  });

  it("names the service's own code of a refusal, which the answer leaves out", () => {
    const { fields } = logOf(new PaymentApiError('refused with code W02', { serviceCode: 'W02' }), { method: 'POST', path: '/wallet/pay' });
    expect(fields).toMatchObject({ code: 'SERVICE_REFUSED', serviceCode: 'W02' });
  });

  it('names the route, status, code and message, with the fix and details of a route error, none of them answered', () => {
    const error = new PaymentRouteError(500, 'INVALID_ORDER', 'This order cannot be paid.', {
      fix: 'correct the order',
      details: { referenceOrderId: 'o-1' },
      cause: new Error('underneath'),
    });
    const { level, fields, msg } = logOf(error, { method: 'POST', path: '/checkout' });
    expect({ level, msg }).toEqual({ level: 'error', msg: 'paymount route failed' });
    expect(fields).toMatchObject({ route: 'POST /checkout', status: 500, code: 'INVALID_ORDER', message: 'This order cannot be paid.', referenceOrderId: 'o-1', fix: 'correct the order' });
    expect((fields.err as Error).message).toBe('underneath');
    const answered = JSON.stringify(answer(error).body);
    for (const logged of ['correct the order', 'o-1', 'underneath']) expect(answered).not.toContain(logged);
  });

  it('a body already parsed gets the fix in the framework words the adapter gave, else in plain Node words', () => {
    const parsed = new WebhookVerificationError('body_already_parsed', 'Parsed.');
    expect(logOf(parsed, { method: 'POST', path: '/webhook', consumedBodyFix: 'the Koa fix' }).fields.fix).toBe('the Koa fix');
    const { fields } = logOf(parsed, { method: 'POST', path: '/webhook' });
    expect(fields.fix).toBe(MOUNTING_ORDER_FIX);
    expect(MOUNTING_ORDER_FIX).toContain('req.rawBody');
    expect(MOUNTING_ORDER_FIX).not.toMatch(/express|koa/i);
  });

  it.each(['stale_timestamp', 'future_timestamp', 'stale_event', 'future_event'] as const)('a delivery refused as %s gets the clock fix', (reason) => {
    const { fields } = logOf(new WebhookVerificationError(reason, 'Out of the window.'), { method: 'POST', path: '/webhook', clockFix: 'the clock fix' });
    expect(fields.fix).toBe('the clock fix');
  });

  it('the clock fix names clock: sandbox.clock, and blames the two clocks when the client has its own', () => {
    const sandboxClock = { now: () => 0 };
    expect(clockFix(sandboxClock, undefined)).toContain("is not the routes' clock");
    expect(clockFix(sandboxClock, { now: () => 0 })).toContain("is not the routes' clock");
    for (const fix of [clockFix(undefined, undefined), clockFix(sandboxClock, sandboxClock)]) {
      expect(fix).not.toContain("is not the routes' clock");
      expect(fix).toContain('clock: sandbox.clock');
    }
  });
});
