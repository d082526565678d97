import type { IncomingMessage } from 'node:http';
import { describeRouteConformance } from '../../../tools/conformance';
import { EXPRESS_VERSIONS, startExpressApp } from './support';

for (const [name, express] of EXPRESS_VERSIONS) {
  // The recommended layout: the payment router first, the app's global JSON parser after it.
  describeRouteConformance(name, {
    async startApp(options) {
      const app = await startExpressApp(express, options, (expressApp, router) => {
        expressApp.use('/payments', router);
        expressApp.use(express.json());
      });
      return { url: app.routesUrl, close: () => app.close() };
    },
  });

  // The usual layout of an existing app: its parsers first, the JSON one keeping the bytes for signature checks.
  describeRouteConformance(`${name} behind express.json({ verify }) keeping req.rawBody`, {
    platformReadsBodies: true,
    async startApp(options) {
      const app = await startExpressApp(express, options, (expressApp, router) => {
        expressApp.use(
          express.json({
            verify: (req: IncomingMessage & { rawBody?: Buffer }, _res, buf) => {
              req.rawBody = buf;
            },
          }),
        );
        expressApp.use(express.urlencoded({ extended: false }));
        expressApp.use('/payments', router);
      });
      return { url: app.routesUrl, close: () => app.close() };
    },
    // express.json() answers malformed JSON itself, before any route.
    platformAnswersMalformedJson: true,
  });
}
