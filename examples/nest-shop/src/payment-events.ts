import { Inject, Injectable } from '@nestjs/common';
import type { PaymentEvent } from '@paymount/core';
import { OnPaymentEvent } from '@paymount/nestjs';
import type { Shop } from '@paymount/example-shop-kit';
import { SHOP } from './tokens';

/** Receives every verified webhook event (and every reconciled outcome) and settles the order it is about. */
@Injectable()
export class PaymentEvents {
  constructor(@Inject(SHOP) private readonly shop: Shop) {}

  @OnPaymentEvent('payment.succeeded', 'payment.failed', 'payment.closed', 'refund.succeeded', 'refund.failed')
  async settleOrder(event: PaymentEvent): Promise<void> {
    await this.shop.recordPaymentEvent(event);
  }
}
