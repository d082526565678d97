import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { PaymentHandlersOptions } from '@paymount/core';
import type { NestPlatformRequest } from './nest-platform';
import { createPaymentsController } from './payments.controller';
import { PAYMENTS_MODULE_OPTIONS } from './payments.tokens';

/** The handler options, with the platform's request (Express or Fastify) as `ctx.context`. */
export type PaymentsModuleOptions = PaymentHandlersOptions<NestPlatformRequest>;

/**
 * Module-level settings that shape the module itself rather than the payment
 * handlers, so they are read when the module is defined, even with
 * forRootAsync (a route path cannot wait for an async factory).
 */
export interface PaymentsModuleExtras {
  /** Where the routes are served, e.g. 'payments' gives POST /payments/checkout. */
  path: string;
  /** Make PaymentsService injectable everywhere without importing the module again. */
  isGlobal: boolean;
}

export const { ConfigurableModuleClass: ConfigurablePaymentsModule } = new ConfigurableModuleBuilder<PaymentsModuleOptions>({
  moduleName: 'Payments',
  optionsInjectionToken: PAYMENTS_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras<PaymentsModuleExtras>({ path: 'payments', isGlobal: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
    controllers: [createPaymentsController(extras.path)],
  }))
  .build();
