import { createPaymentClient, PaymentValidationError } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paymentSettingsFromEnv, publishSandboxSettings, sandboxWanted } from '../src';

const PAYMENT_VARIABLES = ['PAYMENT_API_KEY', 'PAYMENT_BASE_URL', 'PAYMENT_APP_ID', 'PAYMENT_MERCHANT_ID', 'PAYMENT_GATEWAY_ID', 'PAYMENT_WEBHOOK_SECRET'];

describe('sandboxWanted', () => {
  it.each([
    [{ NODE_ENV: 'development' }, true],
    [{}, true],
    [{ NODE_ENV: 'production' }, false],
    [{ NODE_ENV: 'production', PAYMOUNT_SANDBOX: '1' }, true],
    [{ NODE_ENV: 'development', PAYMOUNT_SANDBOX: '0' }, false],
    [{ NODE_ENV: 'production', PAYMOUNT_SANDBOX: '' }, false],
    [{ NODE_ENV: 'production', PAYMOUNT_SANDBOX: '1', NEXT_PHASE: 'phase-production-build' }, false],
  ])('%o: %s', (env, wanted) => {
    expect(sandboxWanted(env)).toBe(wanted);
  });

  it('refuses another value of PAYMOUNT_SANDBOX, naming it and the values it takes', () => {
    const refused = (() => {
      try {
        sandboxWanted({ PAYMOUNT_SANDBOX: 'true' });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(PaymentValidationError);
    expect((refused as PaymentValidationError).issues).toEqual([{ path: 'PAYMOUNT_SANDBOX', rule: 'one_of', message: expect.stringContaining('must be 1') }]);
  });
});

describe('paymentSettingsFromEnv', () => {
  it('throws a PaymentValidationError naming every unset variable, and what to do', () => {
    const refused = (() => {
      try {
        paymentSettingsFromEnv({ PAYMENT_APP_ID: 'app_1', PAYMENT_API_KEY: '' });
      } catch (error) {
        return error as PaymentValidationError;
      }
    })();
    expect(refused).toBeInstanceOf(PaymentValidationError);
    expect(refused?.issues.map((issue) => issue.path)).toEqual(PAYMENT_VARIABLES.filter((name) => name !== 'PAYMENT_APP_ID'));
    expect(refused?.message).toContain('PAYMOUNT_SANDBOX=1');
  });

  it('reads production settings as they are: no local development, no clock', () => {
    const env = {
      PAYMENT_API_KEY: 'sk_live_0123456789abcdef',
      PAYMENT_BASE_URL: 'https://api.payments.example',
      PAYMENT_APP_ID: 'app_1',
      PAYMENT_MERCHANT_ID: 'mch_1',
      PAYMENT_GATEWAY_ID: 'gw',
      PAYMENT_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
      // A sandbox URL that is not the base URL changes nothing.
      PAYMOUNT_SANDBOX_URL: 'http://127.0.0.1:4010',
    };
    expect(paymentSettingsFromEnv(env)).toEqual({
      client: { apiKey: env.PAYMENT_API_KEY, baseUrl: env.PAYMENT_BASE_URL, appId: 'app_1', merchantId: 'mch_1' },
      wallet: { gatewayId: 'gw' },
      webhook: { secret: env.PAYMENT_WEBHOOK_SECRET },
    });
  });
});

describe('publishSandboxSettings', () => {
  let sandbox: Sandbox;
  let warnings: string[];

  beforeEach(async () => {
    sandbox = await startSandbox({ allowLocalNotifyUrl: true });
    warnings = [];
    vi.spyOn(console, 'warn').mockImplementation((line: string) => void warnings.push(line));
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await sandbox.close();
  });

  it("hands the sandbox's settings and clock to paymentSettingsFromEnv, whose client then pays on the sandbox", async () => {
    const env: Record<string, string | undefined> = { PAYMENT_API_KEY: 'sk_live_replaced_0123456789' };
    publishSandboxSettings(sandbox, env);
    const settings = paymentSettingsFromEnv(env);
    expect(settings).toEqual({
      client: { ...sandbox.clientOptions(), localDevelopment: true },
      wallet: { gatewayId: sandbox.gatewayId },
      webhook: { secret: sandbox.webhookSecret },
      clock: sandbox.clock,
    });
    const client = createPaymentClient(settings.client);
    const paid = await client.directPayment({
      referenceOrderId: 'order-env-1',
      description: 'Paid with settings from the environment',
      amount: { orderAmount: 1250, priceCurrency: 'USD' },
      cardEncryptedData: sandbox.mintWalletToken(),
    });
    expect(paid.status).toBe('succeeded');
    await client.close();
  });

  it('says once, in a warning, that payments go to the sandbox, without its key or secret', () => {
    publishSandboxSettings(sandbox, { NODE_ENV: 'production', PAYMOUNT_SANDBOX: '1' });
    expect(warnings).toEqual([expect.stringContaining(`payments go to the embedded sandbox at ${sandbox.url}: no real money moves`)]);
    expect(warnings[0]).not.toContain(sandbox.apiKey);
    expect(warnings[0]).not.toContain(sandbox.webhookSecret);
  });
});
