import { describeOrderPageJourneys } from '../../../tools/browser-testing/order-page-journeys';
import { remoteConformanceTarget } from '../../../tools/conformance';
import { startApp } from './support/start-app';

// The app's `vite build` (global-setup.ts), with the guide's order page (site/guides/tanstack-start.md) written in, served by
// `node .output/server/index.mjs`; its conformance routes' options are the test's, against the sandbox.
describeOrderPageJourneys(
  "TanStack Start: the guide's order page (<WalletButton /> server-rendered and hydrated), node .output/server/index.mjs",
  async (fixture) => {
    const target = remoteConformanceTarget(
      'the TanStack Start production server',
      async (description) => {
        const server = await startApp({ PAYMOUNT_CONFORMANCE: JSON.stringify(description), PAYMOUNT_SANDBOX_URL: fixture.sandbox.url });
        return { url: server.origin, close: server.close };
      },
      { mountPath: '/conformance' },
    );
    const app = await target.startApp(fixture.options);
    return { mount: `${app.url}/conformance`, orderPage: (orderId) => `${app.url}/orders/${orderId}/pay`, close: () => app.close() };
  },
  {
    serverRendered: true,
    csp: { none: "<Scripts /> inlines the router's hydration data, which a policy allows only by a nonce" },
  },
);
