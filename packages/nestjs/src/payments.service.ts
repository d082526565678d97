import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createPaymentHandlers, type PaymentClient, type PaymentHandlers } from '@paymount/core';
import type { PaymentsModuleOptions } from './payments.module-definition';
import { PAYMENTS_MODULE_OPTIONS } from './payments.tokens';

/** The payment handlers and client built from the module options, for injection anywhere. */
@Injectable()
export class PaymentsService implements OnModuleDestroy {
  readonly handlers: PaymentHandlers;

  constructor(@Inject(PAYMENTS_MODULE_OPTIONS) options: PaymentsModuleOptions) {
    this.handlers = createPaymentHandlers(options);
  }

  /** The typed client, for calls of your own (e.g. a direct payment from a job). */
  get client(): PaymentClient {
    return this.handlers.client;
  }

  async onModuleDestroy(): Promise<void> {
    await this.handlers.close();
  }
}
