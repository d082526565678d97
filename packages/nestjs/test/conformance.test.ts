import { Module } from '@nestjs/common';
import { describeRouteConformance } from '../../../tools/conformance';
import { PaymentsModule } from '../src';
import { OwnRouteController, startNestApp } from './support';

// Without Nest's global body parser the routes read every body themselves, so
// even malformed JSON is answered by paymount; with it (the usual setup, see
// nest-app.test.ts) Nest's parser answers malformed JSON before any controller.
describeRouteConformance('NestJS (Express platform, bodyParser: false)', {
  async startApp(options) {
    @Module({ imports: [PaymentsModule.forRoot(options)], controllers: [OwnRouteController] })
    class AppModule {}
    const app = await startNestApp(AppModule, { bodyParser: false });
    return { url: `${app.url}/payments`, close: () => app.close() };
  },
});

// On Fastify the platform's own parsers always run (bodyParser: false leaves Fastify's JSON parser in place);
// rawBody: true keeps the bytes the routes read, and Fastify answers malformed JSON itself.
describeRouteConformance('NestJS (Fastify platform, rawBody: true)', {
  platformAnswersMalformedJson: true,
  platformReadsBodies: true,
  async startApp(options) {
    @Module({ imports: [PaymentsModule.forRoot(options)], controllers: [OwnRouteController] })
    class AppModule {}
    const app = await startNestApp(AppModule, { platform: 'fastify' });
    return { url: `${app.url}/payments`, close: () => app.close() };
  },
});
