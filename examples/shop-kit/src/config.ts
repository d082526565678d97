import { z } from 'zod';
import { validate } from '@paymount/core/schemas';

/** The payment service to talk to: the embedded sandbox, or a real one reached with the merchant's credentials. */
export type ServiceConfig =
  | { kind: 'sandbox' }
  | {
      kind: 'service';
      baseUrl: string;
      apiKey: string;
      appId: string;
      merchantId: string;
      webhookSecret: string;
      gatewayId: string;
    };

export interface ShopConfig {
  port: number;
  host: string;
  /** Where customers and the service reach the shop. Against the sandbox it defaults to the address the shop listens on. */
  publicUrl: string | undefined;
  service: ServiceConfig;
  /** The wallet client library loaded by the browser when not on the sandbox. */
  walletScriptUrl: string;
  walletEnvironment: 'TEST' | 'PRODUCTION';
  /** A PostgreSQL server for the orders and paymount's stores; without it, PGlite in the shop's data folder. */
  databaseUrl: string | undefined;
}

// An empty line in a .env file means "not set".
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const envSchema = z.object({
  PORT: optional(z.coerce.number().int().min(0).max(65535)),
  HOST: optional(z.string().min(1)),
  PUBLIC_URL: optional(z.url({ protocol: /^https?$/ })),
  PAYMENT_BASE_URL: optional(z.url({ protocol: /^https$/ })),
  PAYMENT_API_KEY: optional(z.string().min(1)),
  PAYMENT_APP_ID: optional(z.string().min(1).max(32)),
  PAYMENT_MERCHANT_ID: optional(z.string().min(1).max(32)),
  PAYMENT_WEBHOOK_SECRET: optional(z.string().min(1)),
  PAYMENT_GATEWAY_ID: optional(z.string().min(1)),
  WALLET_SCRIPT_URL: optional(z.url({ protocol: /^https$/ })),
  WALLET_ENVIRONMENT: optional(z.enum(['TEST', 'PRODUCTION'])),
  DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })),
});

const required = z.string({
  error: 'is required once any PAYMENT_* variable is set (unset them all to use the embedded sandbox)',
});

/** With a real service every one of these is needed; their formats were checked by `envSchema`. */
const serviceSchema = z.object({
  PAYMENT_BASE_URL: required,
  PAYMENT_API_KEY: required,
  PAYMENT_APP_ID: required,
  PAYMENT_MERCHANT_ID: required,
  PAYMENT_WEBHOOK_SECRET: required,
  PAYMENT_GATEWAY_ID: required,
  PUBLIC_URL: required,
});

const DEFAULT_WALLET_SCRIPT_URL = 'https://pay.google.com/gp/p/js/pay.js';

/**
 * Reads the shop's configuration from environment variables (see
 * `.env.example`). With no PAYMENT_* variable set the shop runs against the
 * embedded sandbox; with some set, all of them are required, so a typo never
 * silently falls back to the sandbox.
 */
export function readShopConfig(env: Readonly<Record<string, string | undefined>> = process.env): ShopConfig {
  const vars = validate(envSchema, pickKnown(env), 'environment');
  const common = {
    port: vars.PORT ?? 3000,
    host: vars.HOST ?? '127.0.0.1',
    walletScriptUrl: vars.WALLET_SCRIPT_URL ?? DEFAULT_WALLET_SCRIPT_URL,
    walletEnvironment: vars.WALLET_ENVIRONMENT ?? 'PRODUCTION',
    databaseUrl: vars.DATABASE_URL,
  };
  const usesService = Object.entries(vars).some(([name, value]) => name.startsWith('PAYMENT_') && value !== undefined);
  if (!usesService) {
    return { ...common, publicUrl: vars.PUBLIC_URL?.replace(/\/+$/, ''), service: { kind: 'sandbox' } };
  }
  const service = validate(serviceSchema, vars, 'environment');
  return {
    ...common,
    publicUrl: service.PUBLIC_URL.replace(/\/+$/, ''),
    service: {
      kind: 'service',
      baseUrl: service.PAYMENT_BASE_URL,
      apiKey: service.PAYMENT_API_KEY,
      appId: service.PAYMENT_APP_ID,
      merchantId: service.PAYMENT_MERCHANT_ID,
      webhookSecret: service.PAYMENT_WEBHOOK_SECRET,
      gatewayId: service.PAYMENT_GATEWAY_ID,
    },
  };
}

function pickKnown(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(envSchema.shape).map((name) => [name, env[name]]));
}
