/** The payment service: the sandbox started inside the shop, or the real one with the merchant's credentials. */
export type ServiceConfig =
  | { kind: 'sandbox' }
  | { kind: 'service'; baseUrl: string; apiKey: string; appId: string; merchantId: string; webhookSecret: string; gatewayId: string };

export interface ShopConfig {
  port: number;
  host: string;
  /** Where shoppers and the service reach the shop, without a trailing slash; on the sandbox, where it listens. */
  publicUrl: string | undefined;
  /** A PostgreSQL server; without it PGlite keeps the data in `dataDir` (in memory when undefined: tests). */
  databaseUrl: string | undefined;
  dataDir: string | undefined;
  service: ServiceConfig;
  walletScriptUrl: string;
  walletEnvironment: 'TEST' | 'PRODUCTION';
  staffPassword: string;
}

/** A setting that is missing or wrong: the message names the variable and what it takes. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

/** Every variable the shop reads, with what it takes: `.env.example` lists the same names (test/config.test.ts). */
export const SETTINGS = {
  PORT: 'a port number, 0 to 65535',
  HOST: 'an address to listen on',
  PUBLIC_URL: 'an http(s) URL',
  DATABASE_URL: 'a postgres:// or postgresql:// URL',
  DATA_DIR: 'a folder',
  PAYMENT_BASE_URL: 'an https URL',
  PAYMENT_API_KEY: 'the API key',
  PAYMENT_APP_ID: 'the app id',
  PAYMENT_MERCHANT_ID: 'the merchant id',
  PAYMENT_WEBHOOK_SECRET: 'the webhook secret',
  PAYMENT_GATEWAY_ID: 'the wallet gateway id',
  WALLET_SCRIPT_URL: 'an https URL',
  WALLET_ENVIRONMENT: 'TEST or PRODUCTION',
  STAFF_PASSWORD: 'a password of at least 12 characters',
} as const;

type Setting = keyof typeof SETTINGS;

const SERVICE_SETTINGS = ['PAYMENT_BASE_URL', 'PAYMENT_API_KEY', 'PAYMENT_APP_ID', 'PAYMENT_MERCHANT_ID', 'PAYMENT_WEBHOOK_SECRET', 'PAYMENT_GATEWAY_ID'] as const;

function fail(name: Setting, problem: string): never {
  throw new ConfigError(`${name} ${problem}: it takes ${SETTINGS[name]} (see .env.example)`);
}

/** The variable's value; an empty one is "not set", as an empty line in a .env file. */
function read(env: Env, name: Setting, check?: (value: string) => boolean): string | undefined {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return undefined;
  // The value is not repeated: it may be a secret.
  if (check && !check(value)) fail(name, 'is not valid');
  return value;
}

function required(env: Env, name: Setting, why: string, check?: (value: string) => boolean): string {
  return read(env, name, check) ?? fail(name, `is required ${why}`);
}

const urlWith = (protocols: readonly string[]) => (value: string) => {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * The shop's settings from the environment. With no PAYMENT_* variable set, outside production, the
 * shop runs on the embedded sandbox; in production, or once one is set, all of them are required, so a
 * typo never falls back to the sandbox silently.
 */
export function readConfig(env: Env = process.env): ShopConfig {
  const production = env['NODE_ENV'] === 'production';
  const port = Number(read(env, 'PORT', (value) => /^\d+$/.test(value) && Number(value) <= 65535) ?? 3000);
  const usesService = production || SERVICE_SETTINGS.some((name) => read(env, name) !== undefined);
  const why = production ? 'in production (NODE_ENV=production)' : 'once any PAYMENT_* variable is set (unset them all to use the embedded sandbox)';
  const service: ServiceConfig = usesService
    ? {
        kind: 'service',
        baseUrl: required(env, 'PAYMENT_BASE_URL', why, urlWith(['https:'])),
        apiKey: required(env, 'PAYMENT_API_KEY', why),
        appId: required(env, 'PAYMENT_APP_ID', why),
        merchantId: required(env, 'PAYMENT_MERCHANT_ID', why),
        webhookSecret: required(env, 'PAYMENT_WEBHOOK_SECRET', why),
        gatewayId: required(env, 'PAYMENT_GATEWAY_ID', why),
      }
    : { kind: 'sandbox' };
  const publicUrl = usesService ? required(env, 'PUBLIC_URL', why, urlWith(['https:', 'http:'])) : read(env, 'PUBLIC_URL', urlWith(['https:', 'http:']));
  const staffPassword = production
    ? required(env, 'STAFF_PASSWORD', why, (value) => value.length >= 12)
    : (read(env, 'STAFF_PASSWORD') ?? 'staff');
  const walletEnvironment = read(env, 'WALLET_ENVIRONMENT', (value) => value === 'TEST' || value === 'PRODUCTION');
  return {
    port,
    host: read(env, 'HOST') ?? '127.0.0.1',
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    databaseUrl: read(env, 'DATABASE_URL', urlWith(['postgres:', 'postgresql:'])),
    dataDir: read(env, 'DATA_DIR') ?? 'data',
    service,
    walletScriptUrl: read(env, 'WALLET_SCRIPT_URL', urlWith(['https:'])) ?? 'https://pay.google.com/gp/p/js/pay.js',
    walletEnvironment: walletEnvironment === 'PRODUCTION' ? 'PRODUCTION' : 'TEST',
    staffPassword,
  };
}
