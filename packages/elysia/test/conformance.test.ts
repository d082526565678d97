import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startElysiaApp } from './support/elysia-app';

// The compiled Elysia app on Bun, the suite's functions reached over HTTP (tools/conformance/remote.ts).
describeRouteConformance(
  'elysia: paymentPlugin under /payments, bun build --compile, app.listen on Bun',
  remoteConformanceTarget('Bun', (description) => startElysiaApp(description)),
);

// Under an app's own prefix: the plugin finds its mount from the route Elysia registered.
describeRouteConformance(
  "elysia: paymentPlugin({ prefix: '/payments' }) in new Elysia({ prefix: '/shop' })",
  remoteConformanceTarget('Bun', (description) => startElysiaApp(description, { appPrefix: '/shop' }), { mountPath: '/shop/payments' }),
);
