import { readService, readWallet, SERVICE_SETTINGS, settingsReader, urlWith, WALLET_SETTINGS } from './config-rules.js';

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

export { ConfigError } from './config-rules.js';

/** Every variable the shop reads, with what it takes: `.env.example` lists the same names (test/config.test.ts). */
export const SETTINGS = {
  PUBLIC_URL: 'an http(s) URL',
  ...SERVICE_SETTINGS,
  PAYMOUNT_SANDBOX_URL: "the local sandbox's URL, set by npm start only",
  ...WALLET_SETTINGS,
  STAFF_PASSWORD: 'a password of at least 12 characters',
} as const;

export type Settings = Partial<Record<keyof typeof SETTINGS, string>>;

/**
 * The settings of this request's Worker. Off the local sandbox every one is required (a deployed
 * Worker never falls back to a sandbox); on it, its plain-HTTP address and the stub's password
 * "staff" are allowed.
 */
export function readConfig(env: Settings): ShopConfig {
  const { read, required } = settingsReader(SETTINGS, env);
  const sandboxUrl = read('PAYMOUNT_SANDBOX_URL', urlWith(['http:', 'https:']));
  return {
    publicUrl: required('PUBLIC_URL', urlWith(['https:', 'http:'])).replace(/\/+$/, ''),
    service: readService(required, urlWith(sandboxUrl ? ['http:', 'https:'] : ['https:'])),
    sandboxUrl,
    ...readWallet(read),
    staffPassword: sandboxUrl ? (read('STAFF_PASSWORD') ?? 'staff') : required('STAFF_PASSWORD', (value) => value.length >= 12),
  };
}
