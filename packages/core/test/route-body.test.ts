import { describe, expect, it } from 'vitest';
import { readRequestBody } from '../src/entries/internal';
import type { NeutralRequest } from '../src/entries/http';
import { PaymentRouteError } from '../src/index';

function request(contentType: string | undefined, body: string | { parsedBody: unknown }): NeutralRequest {
  return {
    method: 'POST',
    path: '/checkout',
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    query: {},
    ...(typeof body === 'string' ? { readBody: async () => Buffer.from(body) } : { parsedBody: body.parsedBody }),
  };
}

const both = { accept: ['json', 'form'] as const, limitBytes: 100 };

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentRouteError);
  return { status: (error as PaymentRouteError).httpStatus, code: (error as PaymentRouteError).code };
}

describe('readRequestBody', () => {
  it('reads JSON, including a charset parameter and +json media types', async () => {
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/merge-patch+json']) {
      expect(await readRequestBody(request(type, '{"orderId":"a"}'), both)).toEqual({ kind: 'json', fields: { orderId: 'a' } });
    }
  });

  it('reads a form, keeping the first of repeated fields', async () => {
    expect(await readRequestBody(request('application/x-www-form-urlencoded', 'orderId=a&orderId=b&x=%20y'), both)).toEqual({
      kind: 'form',
      fields: { orderId: 'a', x: ' y' },
    });
  });

  it('answers 415 for another or a missing content type, or a form where only JSON is taken', async () => {
    expect(await refusal(readRequestBody(request('text/plain', 'orderId=a'), both))).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(await refusal(readRequestBody(request(undefined, '{}'), both))).toMatchObject({ status: 415 });
    expect(
      await refusal(readRequestBody(request('application/x-www-form-urlencoded', 'a=b'), { accept: ['json'], limitBytes: 100 })),
    ).toMatchObject({ status: 415 });
  });

  it('answers 400 for malformed JSON and for JSON that is not an object', async () => {
    expect(await refusal(readRequestBody(request('application/json', '{"orderId":'), both))).toEqual({ status: 400, code: 'INVALID_JSON' });
    for (const body of ['[1]', '"a"', 'null', '']) {
      const result = await refusal(readRequestBody(request('application/json', body), both));
      expect(result.status).toBe(400);
    }
  });

  it('answers 413 past its own limit even when the reader allowed more', async () => {
    expect(await refusal(readRequestBody(request('application/json', JSON.stringify({ pad: 'x'.repeat(100) })), both))).toEqual({
      status: 413,
      code: 'BODY_TOO_LARGE',
    });
  });

  it('uses a body a parser already produced: an object as is, a string or bytes parsed', async () => {
    expect(await readRequestBody(request('application/json', { parsedBody: { orderId: 'a' } }), both)).toEqual({
      kind: 'json',
      fields: { orderId: 'a' },
    });
    expect(await readRequestBody(request('application/json', { parsedBody: '{"orderId":"b"}' }), both)).toMatchObject({
      fields: { orderId: 'b' },
    });
    expect(
      await readRequestBody(request('application/x-www-form-urlencoded', { parsedBody: Buffer.from('orderId=c') }), both),
    ).toMatchObject({ fields: { orderId: 'c' } });
    expect(await refusal(readRequestBody(request('application/json', { parsedBody: [1, 2] }), both))).toMatchObject({ status: 400 });
  });
});
