import { describe, expect, it } from 'vitest';
import { PaymentValidationError } from '@paymount/core';
import { readShopConfig } from '../src/config';

const service = {
  PAYMENT_BASE_URL: 'https://pay.example.com',
  PAYMENT_API_KEY: 'sk_live_0123456789abcdef',
  PAYMENT_APP_ID: 'app_1',
  PAYMENT_MERCHANT_ID: 'mch_1',
  PAYMENT_WEBHOOK_SECRET: 'whsec_0123456789',
  PAYMENT_GATEWAY_ID: 'gateway',
  PUBLIC_URL: 'https://shop.example.com/',
};

function issuesOf(run: () => unknown): Array<{ path: string; rule: string }> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentValidationError);
    return (error as PaymentValidationError).issues.map(({ path, rule }) => ({ path, rule }));
  }
  throw new Error('expected a PaymentValidationError');
}

describe('readShopConfig', () => {
  it('uses the embedded sandbox on port 3000 of the loopback when nothing is set', () => {
    expect(readShopConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: undefined,
      service: { kind: 'sandbox' },
      walletScriptUrl: 'https://pay.google.com/gp/p/js/pay.js',
      walletEnvironment: 'PRODUCTION',
    });
  });

  it('treats empty variables, as an untouched .env line leaves them, as unset', () => {
    expect(readShopConfig({ PORT: '', PAYMENT_API_KEY: '', PUBLIC_URL: '' }).service).toEqual({ kind: 'sandbox' });
  });

  it('reads every service variable and trims the public URL', () => {
    const config = readShopConfig({ ...service, PORT: '8080', WALLET_ENVIRONMENT: 'TEST' });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('https://shop.example.com');
    expect(config.walletEnvironment).toBe('TEST');
    expect(config.service).toEqual({
      kind: 'service',
      baseUrl: 'https://pay.example.com',
      apiKey: service.PAYMENT_API_KEY,
      appId: 'app_1',
      merchantId: 'mch_1',
      webhookSecret: service.PAYMENT_WEBHOOK_SECRET,
      gatewayId: 'gateway',
    });
  });

  it('names every missing variable once any PAYMENT_* variable is set, instead of falling back to the sandbox', () => {
    expect(issuesOf(() => readShopConfig({ PAYMENT_API_KEY: service.PAYMENT_API_KEY }))).toEqual([
      { path: 'PAYMENT_BASE_URL', rule: 'required' },
      { path: 'PAYMENT_APP_ID', rule: 'required' },
      { path: 'PAYMENT_MERCHANT_ID', rule: 'required' },
      { path: 'PAYMENT_WEBHOOK_SECRET', rule: 'required' },
      { path: 'PAYMENT_GATEWAY_ID', rule: 'required' },
      { path: 'PUBLIC_URL', rule: 'required' },
    ]);
  });

  it('refuses a plain-HTTP service URL, a bad port and an unknown wallet environment, without quoting the key', () => {
    let message = '';
    const issues = issuesOf(() => {
      try {
        return readShopConfig({ ...service, PAYMENT_BASE_URL: 'http://pay.example.com', PORT: '70000', WALLET_ENVIRONMENT: 'LIVE' });
      } catch (error) {
        message = (error as Error).message;
        throw error;
      }
    });
    expect(issues.map((issue) => issue.path).sort()).toEqual(['PAYMENT_BASE_URL', 'PORT', 'WALLET_ENVIRONMENT']);
    expect(message).not.toContain(service.PAYMENT_API_KEY);
  });

  it('takes a PostgreSQL server for the orders through DATABASE_URL, and refuses another kind of URL naming the variable', () => {
    expect(readShopConfig({}).databaseUrl).toBeUndefined();
    expect(readShopConfig({ DATABASE_URL: 'postgres://shop@db.example.com:5432/shop' }).databaseUrl).toBe('postgres://shop@db.example.com:5432/shop');
    expect(readShopConfig({ DATABASE_URL: 'postgresql://localhost/shop' }).databaseUrl).toBe('postgresql://localhost/shop');
    expect(issuesOf(() => readShopConfig({ DATABASE_URL: 'mysql://localhost/shop' }))).toEqual([{ path: 'DATABASE_URL', rule: expect.any(String) }]);
  });
});
