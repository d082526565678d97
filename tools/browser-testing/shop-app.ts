import express from 'express';
import { paymentRouter } from '@paymount/express';
import { listen, startAdapterFixture, type AdapterFixture } from '../adapter-testing';
import { CLIENT_TIMEOUT_MS } from '../conformance/fixtures';

export interface ShopApp {
  fixture: AdapterFixture;
  /** The app's origin, `http://127.0.0.1:<port>`. */
  url: string;
  /** Where the payment routes are mounted in it. */
  mount: string;
  sandboxUrl: string;
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
  // The app's origin, known once it listens; the return URL is asked for only later, per order.
  const origin = { url: '' };
  app.use(
    '/payments',
    paymentRouter({
      ...fixture.options,
      // A short time-out, so a delayed service answer is a pending payment within the test.
      client: { ...fixture.options.client, timeoutMs: CLIENT_TIMEOUT_MS },
      merchantReturnUrl: (order) => `${origin.url}/?orderId=${order.referenceOrderId}`,
    }),
  );
  pages(app, { mount: '/payments', sandboxUrl: fixture.sandbox.url });
  const listening = await listen(app);
  origin.url = listening.url;
  fixture.mountedAt(`${listening.url}/payments`);
  return {
    fixture,
    url: listening.url,
    mount: `${listening.url}/payments`,
    sandboxUrl: fixture.sandbox.url,
    async close() {
      await listening.close();
      await fixture.close();
    },
  };
}
