import { describeRouteConformance } from '../../../tools/conformance';
import { EXPRESS_VERSIONS, startExpressApp } from './support';

// The recommended layout: the payment router first, the app's global JSON parser after it.
for (const [name, express] of EXPRESS_VERSIONS) {
  describeRouteConformance(name, {
    async startApp(options) {
      const app = await startExpressApp(express, options, (expressApp, router) => {
        expressApp.use('/payments', router);
        expressApp.use(express.json());
      });
      return { url: app.routesUrl, close: () => app.close() };
    },
  });
}
