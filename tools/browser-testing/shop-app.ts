import express from 'express';
import { paymentRouter } from '@paymount/express';
import { listen, startAdapterFixture, type AdapterFixture, type Listening } from '../adapter-testing';
import { CLIENT_TIMEOUT_MS } from '../conformance/fixtures';

export interface ShopApp {
  fixture: AdapterFixture;
  /** The app's origin, `http://127.0.0.1:<port>`. */
  url: string;
  /** Where the payment routes are mounted in it. */
  mount: string;
  close(): Promise<void>;
}

/**
 * A real Express app with `@paymount/express` at `/payments`, against the
 * sandbox, paying the conformance suite's orders (`freshOrderId()`; 8888 is
 * declined). `pages` adds the app's own routes before it listens.
 */
export async function startShopApp(pages: (app: express.Express, shop: { mount: string; sandboxUrl: string }) => void = () => undefined): Promise<ShopApp> {
  const fixture = await startAdapterFixture();
  const app = express();
  let server: Listening | undefined;
  app.use(
    '/payments',
    paymentRouter({
      ...fixture.options,
      // A short time-out, so a delayed service answer is a pending payment within the test.
      client: { ...fixture.options.client, timeoutMs: CLIENT_TIMEOUT_MS },
      merchantReturnUrl: (order) => `${server?.url ?? ''}/?orderId=${order.referenceOrderId}`,
    }),
  );
  pages(app, { mount: '/payments', sandboxUrl: fixture.sandbox.url });
  server = await listen(app);
  fixture.mountedAt(`${server.url}/payments`);
  const listening = server;
  return {
    fixture,
    url: listening.url,
    mount: `${listening.url}/payments`,
    async close() {
      await listening.close();
      await fixture.close();
    },
  };
}
