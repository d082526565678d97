import { describeOrderPageJourneys } from '../../../tools/browser-testing/order-page-journeys';
import { startElysiaAppWith } from './support/elysia-app';

// The test app's `bun build --compile` (global-setup.ts), with the Elysia guide's order page bundled in as Bun's HTML
// import, run on Bun; the payment routes' options are the test's, against the sandbox.
describeOrderPageJourneys(
  "Elysia on Bun: the guide's static order page with its @paymount/browser module, bun build --compile",
  async (fixture) => {
    const app = await startElysiaAppWith(fixture.options);
    const origin = new URL(app.url).origin;
    return { mount: app.url, orderPage: (orderId) => `${origin}/orders/${orderId}/pay`, close: () => app.close() };
  },
  {
    serverRendered: false,
    csp: { none: "Bun serves the HTML import itself, before Elysia's hooks, so the app sets no header; the guide names the <meta> way" },
  },
);
