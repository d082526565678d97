import { randomBytes } from 'node:crypto';

/** What the merchant would read in the portal: one application, one merchant, a key per environment. */
export interface SandboxCredentials {
  appId: string;
  merchantId: string;
  testApiKey: string;
  productionApiKey: string;
  webhookSecret: string;
  /** The gateway identifier the wallet tokenization specification names as `gateway`. */
  gatewayId: string;
}

export type Environment = 'test' | 'production';

const token = (prefix: string, bytes: number) => `${prefix}${randomBytes(bytes).toString('hex')}`;

/** Fresh random credentials, overridden field by field by `given` (e.g. stable ones for an example shop; startSandbox checked them). */
export function createCredentials(given: Partial<SandboxCredentials> = {}): SandboxCredentials {
  const credentials: SandboxCredentials = {
    appId: given.appId ?? token('app_', 8),
    merchantId: given.merchantId ?? token('mch_', 8),
    testApiKey: given.testApiKey ?? token('sk_test_', 24),
    productionApiKey: given.productionApiKey ?? token('sk_live_', 24),
    webhookSecret: given.webhookSecret ?? token('whsec_', 24),
    gatewayId: given.gatewayId ?? 'paymountsandbox',
  };
  return credentials;
}

/** The environment the key belongs to: both share one base URL and differ only by key. */
export function environmentOfKey(credentials: SandboxCredentials, key: string): Environment | undefined {
  if (key === credentials.testApiKey) return 'test';
  if (key === credentials.productionApiKey) return 'production';
  return undefined;
}
