import { describeRouteConformance } from '../../../tools/conformance';
import { mountPaymentRoutes, paymentMiddleware } from '../src';
import { KOA_VERSIONS, ownRoute, ROUTER_VERSIONS, startKoaApp } from './support';

for (const [name, App] of KOA_VERSIONS) {
  describeRouteConformance(`${name}, middleware with a mountPath`, {
    async startApp(options) {
      const payments = paymentMiddleware({ ...options, mountPath: '/payments' });
      const app = await startKoaApp(App, '/payments', payments, (koa) =>
        koa.use(payments).use(ownRoute('/payments/own-route')),
      );
      return { url: app.routesUrl, close: () => app.close() };
    },
  });

  for (const [routerName, Router] of ROUTER_VERSIONS) {
    describeRouteConformance(`${name}, ${routerName} with a router prefix`, {
      async startApp(options) {
        const router = new Router({ prefix: '/shop' });
        const payments = mountPaymentRoutes(router, '/payments', options);
        router.get('/payments/own-route', (ctx) => {
          ctx.body = { own: true };
        });
        const app = await startKoaApp(App, '/shop/payments', payments, (koa) =>
          koa.use(router.routes()).use(router.allowedMethods()),
        );
        return { url: app.routesUrl, close: () => app.close() };
      },
    });
  }
}
