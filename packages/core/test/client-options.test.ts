import { describe, expect, it } from 'vitest';
import { createPaymentClient, PaymentValidationError, type PaymentClientOptions } from '../src';
import { API_KEY } from './support/fixtures';

const base: PaymentClientOptions = { apiKey: API_KEY, baseUrl: 'https://api.example.com', appId: 'app_1', merchantId: 'm_1' };

function issuesFor(options: unknown): string[] {
  try {
    createPaymentClient(options as PaymentClientOptions).close();
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect((error as Error).message).not.toContain(API_KEY);
    return (error as PaymentValidationError).issues.map((issue) => `${issue.path}:${issue.rule}`);
  }
  return [];
}

describe('client options', () => {
  it('exposes appId, merchantId and baseUrl but not the key', async () => {
    const client = createPaymentClient(base);
    expect(client).toMatchObject({ appId: 'app_1', merchantId: 'm_1', baseUrl: 'https://api.example.com' });
    expect(JSON.stringify(client)).not.toContain(API_KEY);
    expect(Object.values(client)).not.toContain(API_KEY);
    await client.close();
  });

  it('names every missing option', () => {
    expect(issuesFor({})).toEqual(['apiKey:required', 'baseUrl:required', 'appId:required', 'merchantId:required']);
  });

  it('refuses plain HTTP unless local development is on and the host is loopback', () => {
    expect(issuesFor({ ...base, baseUrl: 'http://api.example.com' })).toEqual(['baseUrl:https']);
    expect(issuesFor({ ...base, baseUrl: 'http://127.0.0.1:4010' })).toEqual(['baseUrl:https']);
    expect(issuesFor({ ...base, baseUrl: 'http://api.example.com', localDevelopment: true })).toEqual(['baseUrl:https']);
    expect(issuesFor({ ...base, baseUrl: 'http://127.0.0.1:4010', localDevelopment: true })).toEqual([]);
    expect(issuesFor({ ...base, baseUrl: 'http://localhost:4010', localDevelopment: true })).toEqual([]);
    expect(issuesFor({ ...base, baseUrl: 'ftp://api.example.com' })).toEqual(['baseUrl:url']);
  });

  it('checks key shape, ids, time limits, retry settings and injected pieces', () => {
    expect(
      issuesFor({
        ...base,
        apiKey: `${API_KEY} `,
        appId: 'a'.repeat(33),
        timeoutMs: 0,
        deadlineMs: 1.5,
        retry: { maxAttempts: 0 },
        logger: console.log,
        clock: Date.now,
        generateId: 'fixed',
      }),
    ).toEqual([
      'apiKey:pattern',
      'appId:max_length',
      'timeoutMs:min',
      'deadlineMs:type',
      'retry.maxAttempts:min',
      'logger:custom',
      'clock:custom',
      'generateId:custom',
    ]);
  });

  it('refuses an API key shorter than 16 characters, a placeholder or a truncated paste', () => {
    expect(issuesFor({ ...base, apiKey: API_KEY.slice(0, 15) })).toEqual(['apiKey:min_length']);
    expect(issuesFor({ ...base, apiKey: '' })).toContain('apiKey:min_length');
    expect(issuesFor({ ...base, apiKey: API_KEY.slice(0, 16) })).toEqual([]);
  });

  it('refuses unknown options', () => {
    expect(issuesFor({ ...base, timeout: 5 })).toEqual(['timeout:unknown_field']);
  });

  it('refuses a non-public notifyUrl before sending unless localDevelopment is on', async () => {
    const client = createPaymentClient(base);
    const input = {
      referenceOrderId: 'order-1001',
      amount: { orderAmount: 100, priceCurrency: 'USD' },
      description: 'Mug',
      notifyUrl: 'http://127.0.0.1:3000/webhook',
    };
    const error = (await client.createCheckoutSession(input).catch((e: unknown) => e)) as PaymentValidationError;
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect(error.issues).toEqual([expect.objectContaining({ path: 'notifyUrl', rule: 'public_https' })]);
    await client.close();
  });
});
