import { Inject, Injectable } from '@nestjs/common';
import type { PaymentEvent, PaymentEventContext } from '@paymount/core';
import { OnPaymentEvent } from '@paymount/nestjs';
import type { Shop } from '@paymount/example-shop-kit';
import { SHOP } from './tokens';

/**
 * Receives every verified webhook event (and every reconciled outcome) and
 * settles the order it is about, in the transaction that marks the event handled.
 */
@Injectable()
export class PaymentEvents {
  constructor(@Inject(SHOP) private readonly shop: Shop) {}

  @OnPaymentEvent('payment.succeeded', 'payment.failed', 'payment.closed', 'refund.succeeded', 'refund.failed')
  async settleOrder(event: PaymentEvent, ctx: PaymentEventContext): Promise<void> {
    await this.shop.onPaymentEvent(event, ctx);
  }
}
