import type { PaymentRoutesOptions } from '@paymount/core';
import { remoteConformanceTarget, type ConformanceApp } from '../../../../tools/conformance';
import { startNitroServer } from './nitro-server';

/**
 * The test app's build served by `node .output/server/index.mjs`, its test routes on `options` (functions
 * called back in this process over the conformance suite's bridge). `url` is the server's origin.
 */
export function startRemoteApp(options: PaymentRoutesOptions): Promise<ConformanceApp> {
  const target = remoteConformanceTarget('a Nuxt production server', async (description) => {
    const server = await startNitroServer({ PAYMOUNT_CONFORMANCE: JSON.stringify(description) });
    return { url: server.origin, close: server.stop };
  });
  return target.startApp(options);
}
