import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeOrderPageJourneys } from '../../../tools/browser-testing/order-page-journeys';
import { typeErrors } from '../../../tools/browser-testing/type-errors';
import { serveConformanceBuild } from './support/serve-build';
import { appDir, WALLET_PAGE } from './support/test-app';

// The conformance app's `react-router build` (global-setup.ts), with the guide's order page (site/guides/react-router.md) written in, served
// in this process as the node-custom-server template serves it, its routes' options against the sandbox.
describeOrderPageJourneys(
  "React Router 7: the guide's order page (<WalletButton /> server-rendered and hydrated), react-router build on @react-router/express",
  async (fixture) => {
    // The page's loader reads it at each request.
    process.env['PAYMOUNT_SANDBOX_URL'] = fixture.sandbox.url;
    const served = await serveConformanceBuild(fixture.options);
    fixture.mountedAt(`${served.origin}/payments`);
    return { mount: `${served.origin}/payments`, orderPage: (orderId) => `${served.origin}/orders/${orderId}/pay`, close: () => served.close() };
  },
  {
    serverRendered: true,
    csp: { none: 'the server rendering inlines its hydration scripts, which a policy allows only by a nonce through a custom entry.server' },
  },
);

it("the guide's order page compiles under the default template's tsconfig", () => {
  const template = join(import.meta.dirname, '..', '..', '..', 'tests', 'readmes', 'react-router-template.tsconfig.json');
  expect(typeErrors([join(appDir('conformance'), WALLET_PAGE)], template)).toEqual([]);
});
