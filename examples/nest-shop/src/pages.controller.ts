import { Body, Controller, Get, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { Shop, ShopResponse } from '@paymount/example-shop-kit';
import { SHOP } from './tokens';

function send(res: Response, answer: ShopResponse): void {
  res.status(answer.status).set(answer.headers).send(answer.body);
}

/** The shop's own pages. Every constructor parameter names its token: the shop runs without decorator metadata. */
@Controller()
export class PagesController {
  constructor(@Inject(SHOP) private readonly shop: Shop) {}

  @Get()
  home(@Res() res: Response): void {
    send(res, this.shop.home());
  }

  @Post('orders')
  placeOrder(@Body() body: Record<string, unknown> | undefined, @Res() res: Response): void {
    send(res, this.shop.placeOrder(body?.['sku']));
  }

  @Get('orders/:id')
  order(@Param('id') id: string, @Res() res: Response): void {
    send(res, this.shop.orderPage(id));
  }

  @Get('orders/:id/status')
  orderStatus(@Param('id') id: string, @Res() res: Response): void {
    send(res, this.shop.orderStatus(id));
  }

  @Get('return')
  returned(@Query('orderId') orderId: unknown, @Res() res: Response): void {
    send(res, this.shop.returnPage(orderId));
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() res: Response): void {
    send(res, this.shop.asset(name));
  }
}
