import 'reflect-metadata';
import { Body, Controller, HttpCode, HttpException, Module, Post, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { PaymentsModule } from '@paymount/nestjs';
import { Pool } from 'undici';
import { checkoutByHand } from '../handwritten/routes';
import { countEvent, paymountOptions, type AppSetup } from './paymount-options';

export type NestPlatform = 'express' | 'fastify';

/** Both sides run the same app settings: rawBody on (webhooks need it), Nest's logger off. */
function createApp(module: Type<unknown>, platform: NestPlatform): Promise<INestApplication> {
  const options = { rawBody: true, logger: false as const };
  return platform === 'fastify' ? NestFactory.create(module, new FastifyAdapter(), options) : NestFactory.create(module, options);
}

export function paymountNest(upstream: string, platform: NestPlatform, setup?: AppSetup): Promise<INestApplication> {
  @Module({ imports: [PaymentsModule.forRoot(paymountOptions(upstream, countEvent, setup))] })
  class PaymountApp {}
  return createApp(PaymountApp, platform);
}

export function handWrittenNest(upstream: string, platform: NestPlatform): Promise<INestApplication> {
  const pool = new Pool(upstream);

  @Controller('payments')
  class CheckoutController {
    @Post('checkout')
    @HttpCode(201)
    async checkout(@Body() body: unknown): Promise<unknown> {
      const answer = await checkoutByHand(pool, upstream, body);
      if (answer.status !== 201) throw new HttpException(answer.body as object, answer.status);
      return answer.body;
    }
  }

  @Module({ controllers: [CheckoutController] })
  class HandWrittenApp {}
  return createApp(HandWrittenApp, platform);
}
