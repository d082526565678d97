import { Inject, Module, type OnApplicationShutdown, type Provider, type Type } from '@nestjs/common';
import { createWebhookQueue, startWebhookWorkers, type WebhookQueue } from '@paymount/bullmq';
import type { MerchantOrder } from '@paymount/core';
import { PaymentsModule, type PaymentsModuleOptions } from '../src';

/**
 * What a queued Nest app reads from its configuration (a stand-in for
 * `@nestjs/config`'s ConfigService); JSON, so a forked process gets it
 * through its environment.
 */
export interface QueuedAppSettings {
  redisUrl: string;
  queueName: string;
  /** The sandbox's client options, plain data. */
  client: { apiKey: string; baseUrl: string; appId: string; merchantId: string; localDevelopment: true };
  webhookSecret: string;
  /** Run workers in this process (the README's `PAYMENT_WORKERS` other than `off`). */
  workers: boolean;
}

export const SETTINGS = Symbol('settings');
export const WEBHOOK_QUEUE = Symbol('webhook queue');

function resolveOrder(orderId: string): MerchantOrder {
  return { referenceOrderId: orderId, amount: { orderAmount: 2500, priceCurrency: 'USD' }, description: 'A queued Nest test order' };
}

/**
 * An app as the README builds one: the settings as a provider, the queue a
 * provider built from them (closed by its module once the app has shut
 * down, after PaymentsModule stopped its workers), and
 * `PaymentsModule.forRootAsync` injecting both. `handlers` are the
 * providers with `@OnPaymentEvent` methods; they may inject WEBHOOK_QUEUE.
 * `options` add to the module options (e.g. a `store`).
 */
export function queuedAppModule(settings: QueuedAppSettings, handlers: Provider[], options: Partial<PaymentsModuleOptions> = {}): Type {
  @Module({ providers: [{ provide: SETTINGS, useValue: settings }], exports: [SETTINGS] })
  class SettingsModule {}

  @Module({
    imports: [SettingsModule],
    providers: [
      {
        provide: WEBHOOK_QUEUE,
        inject: [SETTINGS],
        useFactory: (config: QueuedAppSettings) => createWebhookQueue({ connection: config.redisUrl, name: config.queueName, attempts: 2, backoffMs: 50 }),
      },
    ],
    exports: [WEBHOOK_QUEUE],
  })
  class QueueModule implements OnApplicationShutdown {
    constructor(@Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue) {}

    async onApplicationShutdown(): Promise<void> {
      await this.queue.close();
    }
  }

  @Module({
    imports: [
      QueueModule,
      PaymentsModule.forRootAsync({
        imports: [SettingsModule, QueueModule],
        inject: [SETTINGS, WEBHOOK_QUEUE],
        useFactory: (config: QueuedAppSettings, queue: WebhookQueue) => ({
          client: config.client,
          resolveOrder,
          webhook: { secret: config.webhookSecret, processing: queue },
          logger: false,
          workers: config.workers ? (routes) => startWebhookWorkers(queue, { routes }) : undefined,
          ...options,
        }),
      }),
    ],
    providers: handlers,
  })
  class AppModule {}
  return AppModule;
}
