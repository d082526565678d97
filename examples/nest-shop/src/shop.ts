import 'reflect-metadata';
import express from 'express';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { PaymentsService } from '@paymount/nestjs';
import { startShopServer, type RunningShop, type StartShopOptions } from '@paymount/example-shop-kit';
import { ShopModule } from './shop.module';

/** The NestJS shop: PaymentsModule serves /payments, a controller serves the shop's pages. */
export function startNestShop(options: StartShopOptions = {}): Promise<RunningShop> {
  return startShopServer('NestJS shop', options, async (shop) => {
    const server = express();
    const app = await NestFactory.create(ShopModule.forShop(shop), new ExpressAdapter(server), {
      // Webhooks are verified over the exact bytes received.
      rawBody: true,
      logger: ['error', 'warn'],
    });
    await app.init();
    return { listener: server, paymentRoutes: app.get(PaymentsService).paymentRoutes, close: () => app.close() };
  });
}
