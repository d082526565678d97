import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookAsync, verifyWebhook, WebhookVerificationError } from '../src/index';
import { parseSignedTime } from '../src/entries/internal';

const secret = 'whsec_test_0123456789abcdef';
const now = 1_800_000_000_000;
const payload = {
  transactionId: 'T100',
  transactionRequestId: 'R100',
  referenceOrderId: 'order-100',
  transactionType: 'SALE',
  transactionStatus: 'S',
  amount: { orderAmount: 1250, priceCurrency: 'USD' },
  extraField: { kept: true },
};

// The async form: this file also runs on the web platform (vitest.config.ts), which has no synchronous HMAC.
function signed(overrides: Partial<Parameters<typeof signWebhookAsync>[0]> = {}) {
  return signWebhookAsync({ payload, secret, timestamp: now, deliveryId: 'd-1', ...overrides });
}

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe('verifyWebhook', () => {
  it('accepts a delivery signed as the service signs it and normalises it', async () => {
    const { body, headers } = await signed();
    const event = await verifyWebhook({ rawBody: Buffer.from(body), headers, secret, now });
    expect(event).toEqual({
      type: 'payment.succeeded',
      deliveryId: 'd-1',
      timestamp: now,
      transactionId: 'T100',
      transactionRequestId: 'R100',
      referenceOrderId: 'order-100',
      transactionType: 'SALE',
      transactionStatus: 'S',
      amount: { orderAmount: 1250, priceCurrency: 'USD' },
      payload,
    });
  });

  it('accepts the body as a string and headers in any casing or as a Headers object', async () => {
    const { body, headers } = await signed();
    const mixed = { 'X-Signature': headers['x-signature'], 'X-Client-Request-Id': 'd-1', 'X-Timestamp': String(now) };
    await expect(verifyWebhook({ rawBody: body, headers: mixed, secret, now })).resolves.toMatchObject({ deliveryId: 'd-1' });
    await expect(verifyWebhook({ rawBody: body, headers: new Headers(headers), secret, now })).resolves.toMatchObject({
      type: 'payment.succeeded',
    });
  });

  it('accepts the sha256= prefix, uppercase hex, base64 and base64url forms', async () => {
    const { body, headers } = await signed();
    const digest = createHmac('sha256', secret).update(body).digest();
    for (const form of [
      `sha256=${digest.toString('hex')}`,
      digest.toString('hex').toUpperCase(),
      digest.toString('base64'),
      digest.toString('base64url'),
    ]) {
      await expect(
        verifyWebhook({ rawBody: body, headers: { ...headers, 'x-signature': form }, secret, now }),
      ).resolves.toMatchObject({ type: 'payment.succeeded' });
    }
  });

  it('refuses a 64-character signature with one character that is not hex, wherever it is', async () => {
    const { body, headers } = await signed();
    const hex = createHmac('sha256', secret).update(body).digest('hex');
    // 'İ' lower-cases to two characters: the signature compared is then longer than the digest.
    for (const intruder of ['g', 'İ', '\u0000']) {
      for (const at of [0, 1, 31, 62, 63]) {
        const form = `${hex.slice(0, at)}${intruder}${hex.slice(at + 1)}`;
        expect(await reasonOf(verifyWebhook({ rawBody: body, headers: { ...headers, 'x-signature': form }, secret, now }))).toBe('bad_signature');
      }
    }
  });

  it('refuses the right digest with a character missing or added at the end', async () => {
    const { body, headers } = await signed();
    const hex = createHmac('sha256', secret).update(body).digest('hex');
    for (const form of [hex.slice(0, -1), `${hex}0`, `${hex}${hex}`]) {
      expect(await reasonOf(verifyWebhook({ rawBody: body, headers: { ...headers, 'x-signature': form }, secret, now }))).toBe('bad_signature');
    }
  });

  it('accepts any of several secrets (rotation) and rejects when none matches', async () => {
    const { body, headers } = await signed();
    await expect(verifyWebhook({ rawBody: body, headers, secrets: ['whsec_new_secret_value', secret], now })).resolves.toBeDefined();
    expect(await reasonOf(verifyWebhook({ rawBody: body, headers, secrets: ['whsec_other_1', 'whsec_other_2'], now }))).toBe(
      'bad_signature',
    );
  });

  it('rejects a tampered body, a truncated and a garbage signature', async () => {
    const { body, headers } = await signed();
    expect(await reasonOf(verifyWebhook({ rawBody: body.replace('1250', '1'), headers, secret, now }))).toBe('bad_signature');
    for (const bad of [headers['x-signature'].slice(0, 40), 'not-a-signature', '']) {
      const reason = await reasonOf(verifyWebhook({ rawBody: body, headers: { ...headers, 'x-signature': bad }, secret, now }));
      expect(reason).toBe(bad === '' ? 'missing_header' : 'bad_signature');
    }
  });

  it('names each missing header', async () => {
    const { body, headers } = await signed();
    for (const name of ['x-signature', 'x-client-request-id', 'x-timestamp'] as const) {
      const { [name]: _dropped, ...rest } = headers;
      const error = await verifyWebhook({ rawBody: body, headers: rest, secret, now }).catch((e: WebhookVerificationError) => e);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).reason).toBe('missing_header');
      expect((error as Error).message.toLowerCase()).toContain(name);
    }
  });

  it('enforces the timestamp window both ways, at the default 5 minutes and a custom tolerance', async () => {
    const fiveMinutes = 5 * 60_000;
    const at = async (timestamp: number, toleranceMs?: number) => {
      const { body, headers } = await signed({ timestamp });
      return verifyWebhook({ rawBody: body, headers, secret, now, ...(toleranceMs === undefined ? {} : { toleranceMs }) });
    };
    await expect(at(now - fiveMinutes)).resolves.toBeDefined();
    await expect(at(now + fiveMinutes)).resolves.toBeDefined();
    expect(await reasonOf(at(now - fiveMinutes - 1))).toBe('stale_timestamp');
    expect(await reasonOf(at(now + fiveMinutes + 1))).toBe('future_timestamp');
    expect(await reasonOf(at(now - 2_000, 1_000))).toBe('stale_timestamp');
  });

  it('rejects a timestamp that is not 13 digits (seconds, text)', async () => {
    const { body, headers } = await signed();
    for (const value of [String(Math.floor(now / 1000)), 'yesterday', `${now}.5`]) {
      expect(await reasonOf(verifyWebhook({ rawBody: body, headers: { ...headers, 'x-timestamp': value }, secret, now }))).toBe(
        'bad_timestamp',
      );
    }
  });

  it('refuses a body already parsed into an object, saying how to fix the mounting order', async () => {
    const { headers } = await signed();
    const error = await verifyWebhook({ rawBody: payload, headers, secret, now }).catch((e: WebhookVerificationError) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('body_already_parsed');
    expect((error as Error).message).toMatch(/mount the webhook route before any JSON body parser/);
  });

  it('refuses a body over the size limit before checking anything else', async () => {
    const { body, headers } = await signed({ payload: { ...payload, padding: 'x'.repeat(2_000) } });
    expect(await reasonOf(verifyWebhook({ rawBody: body, headers, secret, now, maxBodyBytes: 1_000 }))).toBe('body_too_large');
  });

  it('refuses a secret with surrounding whitespace without quoting it', async () => {
    const { body, headers } = await signed();
    const error = await verifyWebhook({ rawBody: body, headers, secret: `${secret}\n`, now }).catch((e: Error) => e);
    expect((error as WebhookVerificationError).reason).toBe('invalid_secret');
    expect((error as Error).message).toMatch(/whitespace/);
    expect((error as Error).message).not.toContain(secret);
    expect(await reasonOf(verifyWebhook({ rawBody: body, headers, secrets: [], now }))).toBe('invalid_secret');
  });

  it('parses only after the signature matched, and rejects signed non-JSON or non-object bodies', async () => {
    const forgedGarbage = await signWebhookAsync({ rawBody: '{not json', secret: 'whsec_some_other_key', timestamp: now });
    expect(await reasonOf(verifyWebhook({ rawBody: forgedGarbage.body, headers: forgedGarbage.headers, secret, now }))).toBe(
      'bad_signature',
    );
    for (const rawBody of ['{not json', '[1,2]', '"text"', '{"transactionId": 42}']) {
      const delivery = await signWebhookAsync({ rawBody, secret, timestamp: now });
      expect(await reasonOf(verifyWebhook({ rawBody: delivery.body, headers: delivery.headers, secret, now }))).toBe('invalid_payload');
    }
  });

  it("checks the body's signed notifyTime against the window both ways, whatever X-Timestamp says", async () => {
    const fiveMinutes = 5 * 60_000;
    const at = async (notifyTime: unknown, options: { toleranceMs?: number } = {}) => {
      // A fresh X-Timestamp every time: the header is not signed, so a replay always has one.
      const { body, headers } = await signed({ payload: { ...payload, notifyTime } });
      return verifyWebhook({ rawBody: body, headers, secret, now, ...options });
    };
    await expect(at(new Date(now - fiveMinutes).toISOString())).resolves.toBeDefined();
    await expect(at(now + fiveMinutes)).resolves.toBeDefined();
    expect(await reasonOf(at(new Date(now - fiveMinutes - 1).toISOString()))).toBe('stale_event');
    expect(await reasonOf(at(String(now - 25 * 60 * 60_000)))).toBe('stale_event');
    expect(await reasonOf(at(now + fiveMinutes + 1))).toBe('future_event');
    expect(await reasonOf(at(now - 2_000, { toleranceMs: 1_000 }))).toBe('stale_event');
    for (const bad of ['yesterday', '2027-01-15T08:00:00', now / 1000, true, { at: now }]) {
      expect(await reasonOf(at(bad)), JSON.stringify(bad)).toBe('bad_signed_time');
    }
  });

  it('reads the signed time from the configured field; a body without one passes unless it is required', async () => {
    const withField = await signed({ payload: { ...payload, sentAt: now - 6 * 60_000 } });
    const options = { rawBody: withField.body, headers: withField.headers, secret, now };
    await expect(verifyWebhook(options)).resolves.toBeDefined();
    expect(await reasonOf(verifyWebhook({ ...options, signedTimeField: 'sentAt' }))).toBe('stale_event');
    const without = await signed();
    await expect(verifyWebhook({ rawBody: without.body, headers: without.headers, secret, now })).resolves.toBeDefined();
    const required = verifyWebhook({ rawBody: without.body, headers: without.headers, secret, now, requireSignedTime: true });
    expect(await reasonOf(required)).toBe('missing_signed_time');
    // An inherited property is no field of the body.
    expect(await reasonOf(verifyWebhook({ ...options, signedTimeField: 'toString', requireSignedTime: true }))).toBe('missing_signed_time');
  });
});

describe('parseSignedTime', () => {
  it('reads ISO 8601 with a zone and 13-digit epoch milliseconds', () => {
    const at = Date.UTC(2025, 11, 24, 2, 0, 0);
    expect(parseSignedTime('2025-12-24T02:00:00Z')).toBe(at);
    expect(parseSignedTime('2025-12-24T02:00:00.000Z')).toBe(at);
    expect(parseSignedTime('2025-12-24T10:00:00+08:00')).toBe(at);
    expect(parseSignedTime('2025-12-24T10:00:00+0800')).toBe(at);
    expect(parseSignedTime('2025-12-23T21:30:00-04:30')).toBe(at);
    expect(parseSignedTime('2025-12-24 02:00Z')).toBe(at);
    expect(parseSignedTime('2025-12-24T02:00:00.123456789Z')).toBe(at + 123);
    expect(parseSignedTime(at)).toBe(at);
    expect(parseSignedTime(String(at))).toBe(at);
  });

  it('refuses times without a zone, impossible dates and other numbers', () => {
    for (const value of [
      '2025-12-24T02:00:00',
      '2025-02-30T02:00:00Z',
      '2025-12-24T24:00:00Z',
      '2025-12-24T02:60:00Z',
      '0050-12-24T02:00:00Z',
      '1969-12-31T23:59:59Z',
      '2025-12-24',
      '24/12/2025 02:00 UTC',
      Math.floor(Date.UTC(2025, 11, 24) / 1000),
      String(Math.floor(Date.UTC(2025, 11, 24) / 1000)),
      Date.UTC(2025, 11, 24) + 0.5,
      Number.NaN,
      null,
    ]) {
      expect(parseSignedTime(value), String(value)).toBeUndefined();
    }
  });

  it('takes every day that exists, leap days included, and no other', () => {
    for (const year of [1972, 2000, 2024, 2025, 2100]) {
      for (let month = 0; month <= 13; month++) {
        for (const day of [0, 1, 28, 29, 30, 31, 32]) {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T12:00:00Z`;
          const exists = month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
          expect(parseSignedTime(text), text).toBe(exists ? Date.UTC(year, month - 1, day, 12) : undefined);
        }
      }
    }
  });
});
