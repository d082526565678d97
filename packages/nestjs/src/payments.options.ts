import type { PaymentRoutesOptions } from '@paymount/core';
import type { NestPlatformRequest } from './nest-platform';

/**
 * What forRoot takes, or forRootAsync's factory returns: the payment routes'
 * options, with the platform's request (Express or Fastify) as `ctx.context`.
 */
export type PaymentsModuleOptions = PaymentRoutesOptions<NestPlatformRequest>;

/**
 * Module-level settings that shape the module itself rather than the payment
 * routes, so they are read when the module is defined, even with
 * forRootAsync (a route path cannot wait for an async factory).
 */
export interface PaymentsModuleExtras {
  /** Where the routes are served, e.g. 'payments' gives POST /payments/checkout. */
  mountPath: string;
  /** Make PaymentsService injectable everywhere without importing the module again. */
  isGlobal: boolean;
  /**
   * Decorators for the controller serving the routes, applied as if written
   * above its class in this order, e.g. `[Public()]` to exempt the routes from
   * a global auth guard, or `[UseGuards(...)]`, `[SkipThrottle()]`. They are
   * code, not configuration, so forRootAsync takes them beside its factory.
   */
  controllerDecorators: ClassDecorator[];
}
