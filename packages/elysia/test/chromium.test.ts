import { startAdapterFixture } from '../../../tools/adapter-testing';
import { describeOrderPageJourneys } from '../../../tools/browser-testing/order-page-journeys';
import { startElysiaAppWith } from './support/elysia-app';

// The test app's `bun build --compile` (global-setup.ts), with the README's order page bundled in as Bun's HTML
// import, run on Bun; the payment routes' options are the test's, against the sandbox.
describeOrderPageJourneys(
  "Elysia on Bun: the README's static order page with its @paymount/browser module, bun build --compile",
  async () => {
    const fixture = await startAdapterFixture();
    const app = await startElysiaAppWith(fixture.options).catch(async (error: unknown) => {
      await fixture.close();
      throw error;
    });
    const origin = new URL(app.url).origin;
    return {
      mount: app.url,
      sandboxUrl: fixture.sandbox.url,
      events: fixture.events,
      orderPage: (orderId) => `${origin}/orders/${orderId}/pay`,
      async close() {
        await app.close();
        await fixture.close();
      },
    };
  },
  {
    serverRendered: false,
    csp: { none: "Bun serves the HTML import itself, before Elysia's hooks, so the app sets no header; the README names the <meta> way" },
  },
);
