import { Inject, Injectable } from '@nestjs/common';
import type { PaymentEventContext, PaymentEventSubscriptions, PaymentFailedEvent, PaymentSucceededEvent, RefundSucceededEvent } from '@paymount/core';
import { OnPaymentEvent } from '@paymount/nestjs';
import { Shop } from './shop.js';

/**
 * The verified webhook events (and reconciled outcomes) that settle an order, each run once. Each
 * method runs the shop's handler (src/payments.ts), which writes the order in the transaction that
 * marks the event handled.
 */
@Injectable()
export class PaymentEvents {
  private readonly settle: PaymentEventSubscriptions;

  constructor(@Inject(Shop) shop: Shop) {
    this.settle = shop.payments.on ?? {};
  }

  @OnPaymentEvent('payment.succeeded')
  async markPaid(event: PaymentSucceededEvent, ctx: PaymentEventContext): Promise<void> {
    await this.settle['payment.succeeded']?.(event, ctx);
  }

  // The order stays payable: the shopper pays again.
  @OnPaymentEvent('payment.failed')
  async markFailed(event: PaymentFailedEvent, ctx: PaymentEventContext): Promise<void> {
    await this.settle['payment.failed']?.(event, ctx);
  }

  @OnPaymentEvent('refund.succeeded')
  async markRefunded(event: RefundSucceededEvent, ctx: PaymentEventContext): Promise<void> {
    await this.settle['refund.succeeded']?.(event, ctx);
  }
}
