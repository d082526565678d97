/** A setting that is missing or wrong: the message names the variable and what it takes. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export type Env = Readonly<Record<string, string | undefined>>;

type Check = (value: string) => boolean;

export const urlWith =
  (protocols: readonly string[]): Check =>
  (value) =>
    URL.canParse(value) && protocols.includes(new URL(value).protocol);

/** The payment service's variables, with what they take: a shop off the sandbox needs every one. */
export const SERVICE_SETTINGS = {
  PAYMENT_BASE_URL: 'an https URL',
  PAYMENT_API_KEY: 'the API key',
  PAYMENT_APP_ID: 'the app id',
  PAYMENT_MERCHANT_ID: 'the merchant id',
  PAYMENT_WEBHOOK_SECRET: 'the webhook secret',
  PAYMENT_GATEWAY_ID: 'the wallet gateway id',
} as const;

/** The wallet button's variables: both optional, the test wallet of Google Pay by default. */
export const WALLET_SETTINGS = {
  WALLET_SCRIPT_URL: 'an https URL',
  WALLET_ENVIRONMENT: 'TEST or PRODUCTION',
} as const;

type Read<Name extends string> = (name: Name, check?: Check) => string | undefined;
type Required<Name extends string> = (name: Name, check?: Check) => string;

/**
 * The shop's reading of `settings` (each variable with what it takes) from `env`: an empty value is
 * "not set", as an empty line in a .env file; a wrong one is named, never repeated (it may be a secret).
 */
export function settingsReader<Name extends string>(settings: Readonly<Record<Name, string>>, env: Env) {
  const fail = (name: Name, problem: string): never => {
    throw new ConfigError(`${name} ${problem}: it takes ${settings[name]} (see .env.example)`);
  };
  const read: Read<Name> = (name, check) => {
    const value = env[name]?.trim();
    if (value === undefined || value === '') return undefined;
    if (check && !check(value)) fail(name, 'is not valid');
    return value;
  };
  /** `why` ends the message of a missing one: when it is required. */
  const required = (name: Name, check?: Check, why?: string): string => read(name, check) ?? fail(name, why === undefined ? 'is required' : `is required ${why}`);
  return { read, required };
}

/** The payment service's settings, every one required; `baseUrl` says which URLs its address may be. */
export function readService(required: Required<keyof typeof SERVICE_SETTINGS>, baseUrl: Check) {
  return {
    baseUrl: required('PAYMENT_BASE_URL', baseUrl),
    apiKey: required('PAYMENT_API_KEY'),
    appId: required('PAYMENT_APP_ID'),
    merchantId: required('PAYMENT_MERCHANT_ID'),
    webhookSecret: required('PAYMENT_WEBHOOK_SECRET'),
    gatewayId: required('PAYMENT_GATEWAY_ID'),
  };
}

export function readWallet(read: Read<keyof typeof WALLET_SETTINGS>): { walletScriptUrl: string; walletEnvironment: 'TEST' | 'PRODUCTION' } {
  const walletEnvironment = read('WALLET_ENVIRONMENT', (value) => value === 'TEST' || value === 'PRODUCTION');
  return {
    walletScriptUrl: read('WALLET_SCRIPT_URL', urlWith(['https:'])) ?? 'https://pay.google.com/gp/p/js/pay.js',
    walletEnvironment: walletEnvironment === 'PRODUCTION' ? 'PRODUCTION' : 'TEST',
  };
}
