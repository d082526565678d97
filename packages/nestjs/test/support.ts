import 'reflect-metadata';
import { Controller, Get, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { listen, type Listening } from '../../../tools/adapter-testing';

/** The app's own route beside the payment routes: GET /payments/own-route answers 200 { own: true }. */
@Controller('payments')
export class OwnRouteController {
  @Get('own-route')
  own(): { own: boolean } {
    return { own: true };
  }
}

export interface NestTestApp extends Listening {
  app: INestApplication;
}

/**
 * Creates and serves a Nest app on the Express platform. `rawBody: true` is
 * what the README asks of merchants; tests turn it off to prove the error.
 */
export async function startNestApp(
  root: Type<unknown> | DynamicModule,
  options: { rawBody?: boolean; bodyParser?: boolean; globalPrefix?: string } = {},
): Promise<NestTestApp> {
  const app = await NestFactory.create<NestExpressApplication>(root, {
    rawBody: options.rawBody ?? true,
    bodyParser: options.bodyParser ?? true,
    logger: false,
  });
  if (options.globalPrefix) app.setGlobalPrefix(options.globalPrefix);
  await app.init();
  const server = await listen(app.getHttpAdapter().getInstance());
  return {
    ...server,
    app,
    async close() {
      await server.close();
      await app.close();
    },
  };
}
