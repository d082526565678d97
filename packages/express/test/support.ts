import express5 from 'express';
import express4 from 'express4';
import type { PaymentRoutesOptions } from '@paymount/core';
import { listen, type Listening } from '../../../tools/adapter-testing';
import { paymentRouter, type PaymentRouter } from '../src';

/** Both supported majors; every test runs on each. */
export const EXPRESS_VERSIONS = [
  ['Express 5', express5],
  ['Express 4', express4],
] as const;

export type ExpressModule = (typeof EXPRESS_VERSIONS)[number][1];
export type ExpressApp = ReturnType<ExpressModule>;

export interface ExpressTestApp extends Listening {
  /** Where the payment routes are served. */
  routesUrl: string;
  router: PaymentRouter;
}

/**
 * Starts an app whose middleware `mount` lays out around the payment router
 * (mounted under /payments), then the app's own GET /payments/own-route.
 */
export async function startExpressApp(
  express: ExpressModule,
  options: PaymentRoutesOptions,
  mount: (app: ExpressApp, router: PaymentRouter) => void,
): Promise<ExpressTestApp> {
  const app = express();
  const router = paymentRouter(options);
  mount(app, router);
  app.get('/payments/own-route', (_req, res) => {
    res.json({ own: true });
  });
  const server = await listen(app);
  return {
    ...server,
    routesUrl: `${server.url}/payments`,
    router,
    async close() {
      await server.close();
      await router.paymentRoutes.close();
    },
  };
}
