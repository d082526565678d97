import Koa from 'koa';
import Koa2 from 'koa2';
import type { Middleware } from 'koa';
import { listen, type Listening } from '../../../tools/adapter-testing';
import type { PaymentRoutes } from '@paymount/core';
import Router from '@koa/router';
import Router15 from 'koa-router-15';

/** Both supported majors; every test runs on each. */
export const KOA_VERSIONS = [
  ['Koa 3', Koa],
  ['Koa 2', Koa2],
] as const;

export type KoaClass = (typeof KOA_VERSIONS)[number][1];

/** The router line the project types against, and the newest, whose path syntax differs. */
export const ROUTER_VERSIONS = [
  ['@koa/router 13', Router],
  ['@koa/router 15', Router15 as unknown as typeof Router],
] as const;

export interface KoaTestApp extends Listening {
  /** Where the payment routes are served. */
  routesUrl: string;
}

/** The app's own route, registered after the payment routes: GET {routesPath}/own-route answers 200 { own: true }. */
export function ownRoute(path: string): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== path) return next();
    ctx.body = { own: true };
  };
}

/** Starts an app laid out by `mount`; the payment routes are served at `routesPath`. */
export async function startKoaApp(
  App: KoaClass,
  routesPath: string,
  payments: { readonly paymentRoutes: PaymentRoutes },
  mount: (app: Koa) => void,
): Promise<KoaTestApp> {
  const app = new App();
  mount(app);
  const server = await listen(app.callback());
  return {
    ...server,
    routesUrl: `${server.url}${routesPath}`,
    async close() {
      await server.close();
      await payments.paymentRoutes.close();
    },
  };
}
