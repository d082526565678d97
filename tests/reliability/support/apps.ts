import 'reflect-metadata';
import { Module, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createNodeMiddleware, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { paymentRouter } from '@paymount/express';
import { paymentMiddleware } from '@paymount/koa';
import { PaymentsModule, PaymentsService } from '@paymount/nestjs';
import express from 'express';
import Koa from 'koa';
import { listen, type Listening } from '../../../tools/adapter-testing';

/** `node`: core's own `createNodeMiddleware` on a plain `node:http` server, without a framework. */
export type AdapterName = 'express' | 'koa' | 'nest' | 'node';
/** The frameworks every suite covers; `node` is added where a run is cheap. */
export const ADAPTERS: readonly AdapterName[] = ['express', 'koa', 'nest'];

/** A merchant app serving the payment routes on 127.0.0.1, port 0. */
export interface MerchantApp {
  adapter: AdapterName;
  /** Where the payment routes are mounted, e.g. `http://127.0.0.1:41234/payments`. */
  routesUrl: string;
  /** The core handlers behind the routes, e.g. for `reconcile()`. */
  paymentRoutes: PaymentRoutes;
  close(): Promise<void>;
}

export interface StartAppOptions {
  /** Where the framework's own log lines go (Nest logs through its LoggerService). */
  frameworkLog?: (line: string) => void;
  /**
   * The mounting mistake: a JSON body parser runs before the payment routes
   * and keeps only the parsed object (Express: `express.json()`; Koa: a
   * hand-written parser; Nest: its own parser without `rawBody: true`).
   */
  bodyParsedFirst?: boolean;
}

/** A Koa parser that keeps only the parsed object, as some hand-written ones do. */
const koaJsonParser: Koa.Middleware = async (ctx, next) => {
  if (ctx.is('application/json')) {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    (ctx.request as { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }
  await next();
};

function nestLogger(write: (line: string) => void): LoggerService {
  const level = (name: string) => (message: unknown, ...rest: unknown[]) => write(`nest ${name} ${String(message)} ${rest.map(String).join(' ')}`);
  return { log: level('log'), error: level('error'), warn: level('warn'), debug: level('debug'), verbose: level('verbose'), fatal: level('fatal') };
}

/** The routes served under /payments by `server`; closing stops the server, then the app (by default its routes). */
function served(adapter: AdapterName, server: Listening, paymentRoutes: PaymentRoutes, closeApp = () => paymentRoutes.close()): MerchantApp {
  return {
    adapter,
    routesUrl: `${server.url}/payments`,
    paymentRoutes,
    async close() {
      await server.close();
      await closeApp();
    },
  };
}

/**
 * Starts each framework the way its README tells merchants to: Express and Koa
 * with the routes mounted under /payments before any body parser, Nest with
 * `rawBody: true` and its own body parser on (the default); or, with
 * `bodyParsedFirst`, with the mounting mistake each README warns about.
 */
export async function startMerchantApp(
  adapter: AdapterName,
  options: PaymentRoutesOptions,
  extra: StartAppOptions = {},
): Promise<MerchantApp> {
  if (adapter === 'express') {
    const app = express();
    const router = paymentRouter(options);
    if (extra.bodyParsedFirst) app.use(express.json());
    app.use('/payments', router);
    return served(adapter, await listen(app), router.paymentRoutes);
  }
  if (adapter === 'koa') {
    const app = new Koa();
    const payments = paymentMiddleware({ ...options, mountPath: '/payments' });
    if (extra.bodyParsedFirst) app.use(koaJsonParser);
    app.use(payments);
    return served(adapter, await listen(app.callback()), payments.paymentRoutes);
  }
  if (adapter === 'node') {
    const middleware = createNodeMiddleware(options, { mountPath: '/payments' });
    return served(adapter, await listen(middleware), middleware.paymentRoutes);
  }
  @Module({ imports: [PaymentsModule.forRoot(options)] })
  class ShopModule {}
  const app = await NestFactory.create<NestExpressApplication>(ShopModule, {
    rawBody: !extra.bodyParsedFirst,
    logger: extra.frameworkLog ? nestLogger(extra.frameworkLog) : false,
  });
  await app.init();
  // Nest closes the handlers with its module.
  return served(adapter, await listen(app.getHttpAdapter().getInstance()), app.get(PaymentsService).paymentRoutes, () => app.close());
}
