import { Body, Controller, Get, Headers, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PaymentsService } from '@paymount/nestjs';
import type { BackOffice, Shop, ShopResponse } from '@paymount/example-shop-kit';
import { SHOP } from './tokens';

function send(res: Response, answer: ShopResponse): void {
  res.status(answer.status).set(answer.headers).send(answer.body);
}

type RequestHeaders = Record<string, string | string[] | undefined>;

/** The shop's own pages and back office. Every constructor parameter names its token: the shop runs without decorator metadata. */
@Controller()
export class PagesController {
  private readonly office: BackOffice;

  constructor(@Inject(SHOP) private readonly shop: Shop, @Inject(PaymentsService) payments: PaymentsService) {
    // The back office cancels checkouts and refunds through the payment module's routes object.
    this.office = shop.backOffice(payments.paymentRoutes);
  }

  @Get()
  home(@Res() res: Response): void {
    send(res, this.shop.home());
  }

  @Post('orders')
  async placeOrder(@Body() body: Record<string, unknown> | undefined, @Headers() headers: RequestHeaders, @Res() res: Response): Promise<void> {
    send(res, await this.shop.placeOrder(body?.['sku'], headers));
  }

  @Get('orders/:id')
  async order(@Param('id') id: string, @Res() res: Response): Promise<void> {
    send(res, await this.shop.orderPage(id));
  }

  @Post('orders/:id/cancel-checkout')
  async cancelCheckout(@Param('id') id: string, @Headers() headers: RequestHeaders, @Res() res: Response): Promise<void> {
    send(res, await this.office.cancelCheckout(id, headers));
  }

  @Post('orders/:id/refund')
  async refund(@Param('id') id: string, @Body() body: unknown, @Headers() headers: RequestHeaders, @Res() res: Response): Promise<void> {
    send(res, await this.office.refund(id, body, headers));
  }

  @Get('orders/:id/refunds')
  async refunds(@Param('id') id: string, @Res() res: Response): Promise<void> {
    send(res, await this.office.refunds(id));
  }

  @Get('return')
  async returned(@Query('orderId') orderId: unknown, @Res() res: Response): Promise<void> {
    send(res, await this.shop.returnPage(orderId));
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() res: Response): void {
    send(res, this.shop.asset(name));
  }
}
