import { Body, Controller, Get, Headers, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PaymentsService } from '@paymount/nestjs';
import { Shop, type ShopResponse } from './shop.js';

function send(res: Response, answer: ShopResponse): void {
  res.status(answer.status).set(answer.headers).send(answer.body);
}

/** The form's fields as Nest's body parser gives them; nothing when it was not a form. */
function fields(body: unknown): Record<string, unknown> {
  return (body ?? {}) as Record<string, unknown>;
}

/**
 * The shop's pages and forms; paymount's routes are PaymentsModule's. Each constructor parameter
 * names its token, as @paymount/nestjs's guide does: the tests hold on a Vite that emits no
 * decorator metadata too (vitest takes Vite 6 and 7, whose esbuild emits none).
 */
@Controller()
export class ShopController {
  constructor(
    @Inject(Shop) private readonly shop: Shop,
    @Inject(PaymentsService) private readonly payments: PaymentsService,
  ) {}

  @Get()
  home(@Res() res: Response): void {
    send(res, this.shop.home());
  }

  @Post('orders')
  async placeOrder(@Body() body: unknown, @Res() res: Response): Promise<void> {
    send(res, await this.shop.placeOrder(fields(body)));
  }

  @Get('orders/:id')
  async order(@Param('id') id: string, @Headers('cookie') cookie: string | undefined, @Res() res: Response): Promise<void> {
    send(res, await this.shop.order(id, cookie));
  }

  @Post('orders/:id/refund')
  async refund(@Param('id') id: string, @Headers('cookie') cookie: string | undefined, @Res() res: Response): Promise<void> {
    send(res, await this.shop.refund(id, cookie, this.payments.client));
  }

  @Get('login')
  loginForm(@Query('next') next: unknown, @Res() res: Response): void {
    send(res, this.shop.loginForm(next));
  }

  @Post('login')
  login(@Body() body: unknown, @Res() res: Response): void {
    send(res, this.shop.login(fields(body)));
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() res: Response): void {
    send(res, this.shop.asset(name));
  }
}
