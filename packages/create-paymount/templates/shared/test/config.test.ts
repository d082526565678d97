import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig, SETTINGS } from '../src/config.js';
import { SERVICE_ENV } from './service-settings.js';

const PRODUCTION = { NODE_ENV: 'production', ...SERVICE_ENV };

// .env.example at the project's root, where npm test runs (a CommonJS project's test has no import.meta).
describe('the settings', () => {
  it('.env.example lists every variable the shop reads, and no other', () => {
    const listed = readFileSync('.env.example', 'utf8').match(/^[A-Z_]+(?==)/gm);
    expect(listed?.sort()).toEqual(Object.keys(SETTINGS).sort());
  });

  it('.env.example as it is runs the shop on the sandbox', () => {
    const example = Object.fromEntries(
      readFileSync('.env.example', 'utf8').split('\n').filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.split('=', 2)),
    );
    expect(readConfig(example).service).toEqual({ kind: 'sandbox' });
  });

  it('in production, every payment setting is required: a missing one is named', () => {
    expect(readConfig(PRODUCTION).service).toMatchObject({ kind: 'service', baseUrl: 'https://pay.example.com' });
    const { PAYMENT_WEBHOOK_SECRET: _, ...missing } = PRODUCTION;
    expect(() => readConfig(missing)).toThrow(new ConfigError('PAYMENT_WEBHOOK_SECRET is required in production (NODE_ENV=production): it takes the webhook secret (see .env.example)'));
  });

  it('a bad value is named, never repeated (it may be a secret)', () => {
    expect(() => readConfig({ ...PRODUCTION, PAYMENT_BASE_URL: 'http://pay.example.com' })).toThrow(/^PAYMENT_BASE_URL is not valid: it takes an https URL/);
    expect(() => readConfig({ DATABASE_URL: 'mysql://user:secret@db/shop' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('secret') }));
    expect(() => readConfig({ PORT: 'eighty' })).toThrow(/^PORT is not valid/);
  });
});
