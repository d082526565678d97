import type { PaymentClientOptions, PaymentRoutesOptions } from '@paymount/core';
import type { Sandbox } from '@paymount/sandbox';
import type { ShopConfig } from './config';
import type { WalletScript } from './pages';

/** The part of the payment route options that depends only on which service the shop talks to. */
export interface PaymentSettings {
  client: PaymentClientOptions;
  webhook: PaymentRoutesOptions['webhook'];
  /** Time for the webhook timestamp window; the sandbox's own when it is the service. */
  clock: PaymentRoutesOptions['clock'];
  gatewayId: string;
  walletScript: WalletScript;
}

/**
 * Against the embedded sandbox everything comes from the sandbox itself: its
 * URL, test key, ids, webhook secret and clock (so moving the sandbox's time
 * moves the shop's request and webhook timestamps with it). Otherwise it comes from the
 * environment.
 */
export function paymentSettings(config: ShopConfig, sandbox: Sandbox | undefined): PaymentSettings {
  const { service } = config;
  if (service.kind === 'sandbox') {
    if (!sandbox) throw new Error('The shop is configured for the embedded sandbox, but no sandbox was started.');
    return {
      client: sandbox.clientOptions(),
      webhook: { secret: sandbox.webhookSecret },
      clock: sandbox.clock,
      gatewayId: sandbox.gatewayId,
      walletScript: { kind: 'sandbox', url: `${sandbox.url}/sandbox/test-wallet.js`, environment: 'TEST' },
    };
  }
  return {
    client: {
      apiKey: service.apiKey,
      baseUrl: service.baseUrl,
      appId: service.appId,
      merchantId: service.merchantId,
    },
    webhook: { secret: service.webhookSecret },
    clock: undefined,
    gatewayId: service.gatewayId,
    walletScript: { kind: 'service', url: config.walletScriptUrl, environment: config.walletEnvironment },
  };
}
