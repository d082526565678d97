import 'reflect-metadata';
import { Controller, Get, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
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

/** The HTTP platforms PaymentsModule serves; tests run on each. */
export const NEST_PLATFORMS = ['express', 'fastify'] as const;
export type NestPlatform = (typeof NEST_PLATFORMS)[number];

export interface NestAppOptions {
  platform?: NestPlatform;
  rawBody?: boolean;
  bodyParser?: boolean;
  globalPrefix?: string;
}

/** Creates an app, not yet initialised, on the chosen platform (Express by default). */
export function createNestApp(root: Type<unknown> | DynamicModule, options: NestAppOptions = {}): Promise<INestApplication> {
  const appOptions = { rawBody: options.rawBody ?? true, bodyParser: options.bodyParser ?? true, logger: false as const };
  return options.platform === 'fastify'
    ? NestFactory.create<NestFastifyApplication>(root, new FastifyAdapter(), appOptions)
    : NestFactory.create<NestExpressApplication>(root, appOptions);
}

/**
 * Creates and serves a Nest app. `rawBody: true` is what the README asks of
 * merchants; tests turn it off to prove the error.
 */
export async function startNestApp(root: Type<unknown> | DynamicModule, options: NestAppOptions = {}): Promise<NestTestApp> {
  const app = await createNestApp(root, options);
  if (options.globalPrefix) app.setGlobalPrefix(options.globalPrefix);
  await app.init();
  if (options.platform === 'fastify') {
    await app.listen(0, '127.0.0.1');
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    return { url, app, close: () => app.close() };
  }
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
