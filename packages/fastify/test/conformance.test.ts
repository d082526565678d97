import { describeRouteConformance } from '../../../tools/conformance';
import { FASTIFY_VERSIONS, startFastifyApp } from './support';

for (const [name, fastify] of FASTIFY_VERSIONS) {
  describeRouteConformance(name, {
    async startApp(options) {
      const app = await startFastifyApp(fastify, options);
      return { url: app.routesUrl, close: () => app.close() };
    },
  });
}
