/** The shop's settings, from the Worker's variables and secrets (`wrangler secret put`; `.env` for `wrangler dev`). */
export interface ShopConfig {
  /** Where shoppers and the service reach the shop, without a trailing slash. */
  publicUrl: string;
  service: { baseUrl: string; apiKey: string; appId: string; merchantId: string; webhookSecret: string; gatewayId: string };
  /** The sandbox `npm start` runs beside `wrangler dev`: plain HTTP, a local notify URL and its test wallet allowed. */
  sandboxUrl: string | undefined;
  walletScriptUrl: string;
  walletEnvironment: 'TEST' | 'PRODUCTION';
  staffPassword: string;
}

/** A setting that is missing or wrong: the message names the variable and what it takes. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Every variable the shop reads, with what it takes: `.env.example` lists the same names (test/config.test.ts). */
export const SETTINGS = {
  PUBLIC_URL: 'an http(s) URL',
  PAYMENT_BASE_URL: 'an https URL',
  PAYMENT_API_KEY: 'the API key',
  PAYMENT_APP_ID: 'the app id',
  PAYMENT_MERCHANT_ID: 'the merchant id',
  PAYMENT_WEBHOOK_SECRET: 'the webhook secret',
  PAYMENT_GATEWAY_ID: 'the wallet gateway id',
  PAYMOUNT_SANDBOX_URL: "the local sandbox's URL, set by npm start only",
  WALLET_SCRIPT_URL: 'an https URL',
  WALLET_ENVIRONMENT: 'TEST or PRODUCTION',
  STAFF_PASSWORD: 'a password of at least 12 characters',
} as const;

type Setting = keyof typeof SETTINGS;
export type Settings = Partial<Record<Setting, string>>;

function fail(name: Setting, problem: string): never {
  throw new ConfigError(`${name} ${problem}: it takes ${SETTINGS[name]} (see .env.example)`);
}

/** The variable's value; an empty one is "not set". The value is never repeated: it may be a secret. */
function read(env: Settings, name: Setting, check?: (value: string) => boolean): string | undefined {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return undefined;
  if (check && !check(value)) fail(name, 'is not valid');
  return value;
}

function required(env: Settings, name: Setting, check?: (value: string) => boolean): string {
  return read(env, name, check) ?? fail(name, 'is required');
}

const urlWith = (protocols: readonly string[]) => (value: string) => URL.canParse(value) && protocols.includes(new URL(value).protocol);

/**
 * The settings of this request's Worker. Off the local sandbox every one is required (a deployed
 * Worker never falls back to a sandbox); on it, its plain-HTTP address and the stub's password
 * "staff" are allowed.
 */
export function readConfig(env: Settings): ShopConfig {
  const sandboxUrl = read(env, 'PAYMOUNT_SANDBOX_URL', urlWith(['http:', 'https:']));
  const serviceUrl = urlWith(sandboxUrl ? ['http:', 'https:'] : ['https:']);
  const walletEnvironment = read(env, 'WALLET_ENVIRONMENT', (value) => value === 'TEST' || value === 'PRODUCTION');
  return {
    publicUrl: required(env, 'PUBLIC_URL', urlWith(['https:', 'http:'])).replace(/\/+$/, ''),
    service: {
      baseUrl: required(env, 'PAYMENT_BASE_URL', serviceUrl),
      apiKey: required(env, 'PAYMENT_API_KEY'),
      appId: required(env, 'PAYMENT_APP_ID'),
      merchantId: required(env, 'PAYMENT_MERCHANT_ID'),
      webhookSecret: required(env, 'PAYMENT_WEBHOOK_SECRET'),
      gatewayId: required(env, 'PAYMENT_GATEWAY_ID'),
    },
    sandboxUrl,
    walletScriptUrl: read(env, 'WALLET_SCRIPT_URL', urlWith(['https:'])) ?? 'https://pay.google.com/gp/p/js/pay.js',
    walletEnvironment: walletEnvironment === 'PRODUCTION' ? 'PRODUCTION' : 'TEST',
    staffPassword: sandboxUrl ? (read(env, 'STAFF_PASSWORD') ?? 'staff') : required(env, 'STAFF_PASSWORD', (value) => value.length >= 12),
  };
}
