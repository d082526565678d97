import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, MetadataScanner, Reflector } from '@nestjs/core';
import type { PaymentEventHandler, PaymentEventName } from '@paymount/core';
import { PAYMENT_EVENT_METADATA } from './on-payment-event.decorator';
import { PAYMENT_EVENT_CONTEXT_TYPE } from './payment-event.context';
import { PaymentsService } from './payments.service';

/**
 * Interceptors and exception filters apply as on a route. Guards do not: a
 * guard decides who may call a route, and the caller here is the webhook
 * route itself, after the delivery's signature was verified (a global auth
 * guard would refuse every event).
 */
const ENHANCERS = { guards: false, interceptors: true, filters: true };

/**
 * Finds every `@OnPaymentEvent` method on the application's providers and
 * controllers and subscribes it to the payment routes, so a verified webhook
 * reaches it exactly once, through Nest's external context.
 */
@Injectable()
export class PaymentEventExplorer implements OnModuleInit, OnApplicationShutdown {
  private readonly unsubscribes: Array<() => void> = [];

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(ExternalContextCreator) private readonly contexts: ExternalContextCreator,
    @Inject(PaymentsService) private readonly payments: PaymentsService,
  ) {}

  onModuleInit(): void {
    // A provider exported through several modules shows up once per module; it must subscribe once.
    const seen = new Set<object>();
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const instance: unknown = wrapper.instance;
      // Request-scoped providers have no instance to call outside a request.
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic() || seen.has(instance)) continue;
      seen.add(instance);
      this.subscribeMethodsOf(instance as Record<string, unknown>);
    }
  }

  /**
   * Last of the app's shutdown: until PaymentsService has closed the workers
   * (onModuleDestroy) and Nest the HTTP server, an event may still arrive,
   * and one dispatched without its handlers would be marked handled unrun.
   */
  onApplicationShutdown(): void {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
  }

  private subscribeMethodsOf(instance: Record<string, unknown>): void {
    for (const name of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
      const method = instance[name];
      if (typeof method !== 'function') continue;
      const events = this.reflector.get<PaymentEventName[] | undefined>(PAYMENT_EVENT_METADATA, method);
      if (!events) continue;
      const handler = this.contexts.create(
        instance,
        method as (...args: unknown[]) => unknown,
        name,
        undefined,
        undefined,
        undefined,
        undefined,
        ENHANCERS,
        PAYMENT_EVENT_CONTEXT_TYPE,
      ) as PaymentEventHandler;
      for (const event of events) this.unsubscribes.push(this.payments.paymentRoutes.on(event, handler));
    }
  }
}
