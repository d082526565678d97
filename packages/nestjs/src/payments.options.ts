import type { PaymentRoutes, PaymentRoutesOptions } from '@paymount/core';
import type { NestPlatformRequest } from './nest-platform';

/** Workers running the queued events, as `startWebhookWorkers` (`@paymount/bullmq`) returns them. */
export interface PaymentWorkers {
  /** Stops taking jobs and resolves once the running ones have finished. */
  close(): Promise<void>;
}

/** Starts the workers on the module's routes: `(routes) => startWebhookWorkers(queue, { routes })`. */
export type StartPaymentWorkers = (routes: PaymentRoutes<NestPlatformRequest>) => PaymentWorkers;

/**
 * What forRoot takes, or forRootAsync's factory returns: the payment routes'
 * options, with the platform's request (Express or Fastify) as `ctx.context`,
 * and the workers of queued processing.
 */
export type PaymentsModuleOptions = PaymentRoutesOptions<NestPlatformRequest> & {
  /**
   * Runs the events `webhook.processing` queues in this process: called with
   * the module's routes once the app is up (onApplicationBootstrap, every
   * `@OnPaymentEvent` method subscribed), and its workers closed first when
   * the app closes (onModuleDestroy: running jobs finish, waiting ones stay
   * queued). A worker-only process is the same module in
   * `NestFactory.createApplicationContext(AppModule)`. Leave it out where
   * the app should only queue (an HTTP app beside worker processes).
   *
   * @example
   * workers: (routes) => startWebhookWorkers(queue, { routes, concurrency: 5 })
   */
  workers?: StartPaymentWorkers | undefined;
};

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
