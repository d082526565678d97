import { readService, readWallet, SERVICE_SETTINGS, settingsReader, urlWith, WALLET_SETTINGS, type Env } from './config-rules.js';

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

export { ConfigError } from './config-rules.js';

/** Every variable the shop reads, with what it takes: `.env.example` lists the same names (test/config.test.ts). */
export const SETTINGS = {
  PORT: 'a port number, 0 to 65535',
  HOST: 'an address to listen on',
  PUBLIC_URL: 'an http(s) URL',
  DATABASE_URL: 'a postgres:// or postgresql:// URL',
  DATA_DIR: 'a folder',
  ...SERVICE_SETTINGS,
  ...WALLET_SETTINGS,
  STAFF_PASSWORD: 'a password of at least 12 characters',
} as const;

/**
 * The shop's settings from the environment. With no PAYMENT_* variable set, outside production, the
 * shop runs on the embedded sandbox; in production, or once one is set, all of them are required, so a
 * typo never falls back to the sandbox silently.
 */
export function readConfig(env: Env = process.env): ShopConfig {
  const { read, required } = settingsReader(SETTINGS, env);
  const production = env['NODE_ENV'] === 'production';
  const port = Number(read('PORT', (value) => /^\d+$/.test(value) && Number(value) <= 65535) ?? 3000);
  const usesService = production || Object.keys(SERVICE_SETTINGS).some((name) => read(name as keyof typeof SERVICE_SETTINGS) !== undefined);
  const why = production ? 'in production (NODE_ENV=production)' : 'once any PAYMENT_* variable is set (unset them all to use the embedded sandbox)';
  const service: ServiceConfig = usesService ? { kind: 'service', ...readService((name, check) => required(name, check, why), urlWith(['https:'])) } : { kind: 'sandbox' };
  const publicUrl = usesService ? required('PUBLIC_URL', urlWith(['https:', 'http:']), why) : read('PUBLIC_URL', urlWith(['https:', 'http:']));
  const staffPassword = production ? required('STAFF_PASSWORD', (value) => value.length >= 12, why) : (read('STAFF_PASSWORD') ?? 'staff');
  return {
    port,
    host: read('HOST') ?? '127.0.0.1',
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    databaseUrl: read('DATABASE_URL', urlWith(['postgres:', 'postgresql:'])),
    dataDir: read('DATA_DIR') ?? 'data',
    service,
    ...readWallet(read),
    staffPassword,
  };
}
