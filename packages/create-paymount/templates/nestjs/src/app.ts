import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { PaymentsService } from '@paymount/nestjs';
import { AppModule } from './app.module.js';
import type { ShopApp } from './server.js';
import type { Shop } from './shop.js';

/**
 * The shop in NestJS, on its Express platform: AppModule serves paymount's routes and the shop's
 * pages. Initialised rather than `listen`ed: server.ts listens first, so the shop knows its own URL
 * (the webhook's and the return address) before the module is built.
 */
export async function createApp(shop: Shop): Promise<ShopApp> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forShop(shop), {
    // The webhook route verifies the exact bytes the service signed.
    rawBody: true,
    logger: ['error', 'warn'],
  });
  app.disable('x-powered-by');
  await app.init();
  return { listener: app.getHttpAdapter().getInstance(), paymentRoutes: app.get(PaymentsService).paymentRoutes, close: () => app.close() };
}
