import type { Sandbox } from '@paymount/sandbox';

/** What a merchant app under test is configured with to reach the sandbox: its URL, credentials and wallet gateway. */
export interface SandboxService {
  baseUrl: string;
  apiKey: string;
  appId: string;
  merchantId: string;
  webhookSecret: string;
  gatewayId: string;
}

export const sandboxService = (sandbox: Sandbox): SandboxService => ({
  baseUrl: sandbox.url,
  apiKey: sandbox.apiKey,
  appId: sandbox.appId,
  merchantId: sandbox.merchantId,
  webhookSecret: sandbox.webhookSecret,
  gatewayId: sandbox.gatewayId,
});
