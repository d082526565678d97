import 'reflect-metadata';
import { Body, Controller, HttpCode, HttpException, Module, Post, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PaymentsModule } from '@paymount/nestjs';
import { Pool } from 'undici';
import { checkoutByHand } from '../handwritten/routes';
import { countEvent, paymountOptions } from './paymount-options';

/** Both sides run the same app settings: rawBody on (webhooks need it), Nest's logger off. */
function createApp(module: Type<unknown>): Promise<INestApplication> {
  return NestFactory.create(module, { rawBody: true, logger: false });
}

export function paymountNest(upstream: string): Promise<INestApplication> {
  @Module({ imports: [PaymentsModule.forRoot(paymountOptions(upstream, countEvent))] })
  class PaymountApp {}
  return createApp(PaymountApp);
}

export function handWrittenNest(upstream: string): Promise<INestApplication> {
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
  return createApp(HandWrittenApp);
}
