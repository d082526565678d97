import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig, SETTINGS } from '../src/config.js';
import { SERVICE_ENV } from './service-settings.js';

const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');

describe('the settings', () => {
  it('.env.example lists every variable the shop reads, and no other', () => {
    expect(example.match(/^[A-Z_]+(?==)/gm)?.sort()).toEqual(Object.keys(SETTINGS).sort());
  });

  it('deployed, every setting is required: a missing one is named, and nothing falls back to the sandbox', () => {
    expect(readConfig(SERVICE_ENV)).toMatchObject({ sandboxUrl: undefined, service: { baseUrl: 'https://pay.example.com' }, walletEnvironment: 'TEST' });
    const { PAYMENT_WEBHOOK_SECRET: _, ...missing } = SERVICE_ENV;
    expect(() => readConfig(missing)).toThrow(new ConfigError('PAYMENT_WEBHOOK_SECRET is required: it takes the webhook secret (see .env.example)'));
    const { STAFF_PASSWORD: __, ...noPassword } = SERVICE_ENV;
    expect(() => readConfig(noPassword)).toThrow(/^STAFF_PASSWORD is required/);
  });

  it('a bad value is named, never repeated (it may be a secret)', () => {
    expect(() => readConfig({ ...SERVICE_ENV, PAYMENT_BASE_URL: 'http://pay.example.com' })).toThrow(/^PAYMENT_BASE_URL is not valid: it takes an https URL/);
    expect(() => readConfig({ ...SERVICE_ENV, STAFF_PASSWORD: 'hunter2' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
  });

  it('on the sandbox npm start runs, its plain-HTTP address and the password "staff" are allowed', () => {
    const config = readConfig({ ...SERVICE_ENV, PAYMENT_BASE_URL: 'http://127.0.0.1:4010', PAYMOUNT_SANDBOX_URL: 'http://127.0.0.1:4010', STAFF_PASSWORD: '' });
    expect(config).toMatchObject({ sandboxUrl: 'http://127.0.0.1:4010', staffPassword: 'staff' });
  });
});
