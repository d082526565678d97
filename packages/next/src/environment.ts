import { createRedactingLogger, PaymentValidationError, type Clock, type PaymentClientOptions } from '@paymount/core';

/** The environment variables the payment settings are read from, by setting: written by the sandbox, read by the routes. */
export const PAYMENT_ENV = {
  apiKey: 'PAYMENT_API_KEY',
  baseUrl: 'PAYMENT_BASE_URL',
  appId: 'PAYMENT_APP_ID',
  merchantId: 'PAYMENT_MERCHANT_ID',
  gatewayId: 'PAYMENT_GATEWAY_ID',
  webhookSecret: 'PAYMENT_WEBHOOK_SECRET',
} as const;

/** `1`: start the embedded sandbox, even under `next start`; `0`: never. Unset: only when NODE_ENV is not production. */
export const SANDBOX_SWITCH = 'PAYMOUNT_SANDBOX';
/** The embedded sandbox's URL, set while it serves: settings pointing there are local development. */
export const SANDBOX_URL = 'PAYMOUNT_SANDBOX_URL';

export type EnvironmentVariables = Record<string, string | undefined>;

/** What the routes need of the service, from the environment. Spread into the options; override what you need. */
export interface PaymentSettings {
  client: PaymentClientOptions;
  wallet: { gatewayId: string };
  webhook: { secret: string };
  /** The sandbox's clock, when the routes run in the process that started it (the Node runtime). */
  clock?: Clock;
}

/** What `publishSandboxSettings` reads of a `@paymount/sandbox` `Sandbox`. */
export interface SandboxSettingsSource {
  url: string;
  apiKey: string;
  appId: string;
  merchantId: string;
  gatewayId: string;
  webhookSecret: string;
  clock: Clock;
}

// The clock cannot travel through the environment; the Node runtime's routes share the process (and so this global) with the hook.
const SANDBOX_CLOCK = Symbol.for('@paymount/next.sandbox-clock');
type ClockHolder = { [SANDBOX_CLOCK]?: { url: string; clock: Clock } };

const log = createRedactingLogger();

function processEnv(): EnvironmentVariables {
  return typeof process === 'undefined' ? {} : process.env;
}

/**
 * Whether to start the embedded sandbox: `PAYMOUNT_SANDBOX=1` always (e.g.
 * `next start` on a laptop or in CI), `PAYMOUNT_SANDBOX=0` never, else
 * whenever NODE_ENV is not `production` (`next dev`). Never while `next build`
 * runs. Throws on another value of `PAYMOUNT_SANDBOX`.
 */
export function sandboxWanted(env: EnvironmentVariables = processEnv()): boolean {
  if (env['NEXT_PHASE'] === 'phase-production-build') return false;
  const value = env[SANDBOX_SWITCH];
  if (value === '1') return true;
  if (value === '0') return false;
  if (value !== undefined && value !== '') {
    throw new PaymentValidationError('environment', [
      { path: SANDBOX_SWITCH, rule: 'one_of', message: 'must be 1 (start the embedded sandbox) or 0 (never), or unset (only when NODE_ENV is not production)' },
    ]);
  }
  return env['NODE_ENV'] !== 'production';
}

/**
 * Points `paymentSettingsFromEnv()` at a running sandbox: writes its URL,
 * keys and ids into the `PAYMENT_*` variables (replacing any set) and keeps
 * its clock for routes in this process. Call it from `instrumentation.ts`'s
 * `register()` on the Node runtime, which Next.js awaits before any request.
 */
export function publishSandboxSettings(sandbox: SandboxSettingsSource, env: EnvironmentVariables = processEnv()): void {
  const values: Record<keyof typeof PAYMENT_ENV, string> = {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.url,
    appId: sandbox.appId,
    merchantId: sandbox.merchantId,
    gatewayId: sandbox.gatewayId,
    webhookSecret: sandbox.webhookSecret,
  };
  for (const [setting, name] of Object.entries(PAYMENT_ENV)) env[name] = values[setting as keyof typeof PAYMENT_ENV];
  env[SANDBOX_URL] = sandbox.url;
  (globalThis as ClockHolder)[SANDBOX_CLOCK] = { url: sandbox.url, clock: sandbox.clock };
  log.warn(
    { sandbox: sandbox.url, switch: `${SANDBOX_SWITCH}=${env[SANDBOX_SWITCH] ?? ''}`, nodeEnv: env['NODE_ENV'] },
    `paymount payments go to the embedded sandbox at ${sandbox.url}: no real money moves. In production leave ${SANDBOX_SWITCH} unset (or 0) and set the PAYMENT_* variables`,
  );
}

/**
 * The client, wallet and webhook settings from `PAYMENT_API_KEY`,
 * `PAYMENT_BASE_URL`, `PAYMENT_APP_ID`, `PAYMENT_MERCHANT_ID`,
 * `PAYMENT_GATEWAY_ID` and `PAYMENT_WEBHOOK_SECRET`. When they point at the
 * embedded sandbox (`PAYMOUNT_SANDBOX_URL`), the client is in local
 * development (plain HTTP, local notify URLs) and, in the sandbox's process,
 * client and routes read its clock. Throws a `PaymentValidationError` naming
 * every variable that is unset.
 */
export function paymentSettingsFromEnv(env: EnvironmentVariables = processEnv()): PaymentSettings {
  const missing = Object.values(PAYMENT_ENV).filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new PaymentValidationError(
      `payment settings: set them in the environment the server runs in, or start the embedded sandbox (${SANDBOX_SWITCH}=1, instrumentation.ts)`,
      missing.map((name) => ({ path: name, rule: 'required', message: 'is not set' })),
    );
  }
  const read = (setting: keyof typeof PAYMENT_ENV): string => env[PAYMENT_ENV[setting]] as string;
  const baseUrl = read('baseUrl');
  const sandbox = env[SANDBOX_URL] !== undefined && env[SANDBOX_URL] === baseUrl;
  const held = (globalThis as ClockHolder)[SANDBOX_CLOCK];
  const clock = sandbox && held?.url === baseUrl ? held.clock : undefined;
  return {
    client: {
      apiKey: read('apiKey'),
      baseUrl,
      appId: read('appId'),
      merchantId: read('merchantId'),
      ...(sandbox ? { localDevelopment: true } : {}),
      ...(clock ? { clock } : {}),
    },
    wallet: { gatewayId: read('gatewayId') },
    webhook: { secret: read('webhookSecret') },
    ...(clock ? { clock } : {}),
  };
}
