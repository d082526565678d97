import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { PaymentEventHandler, PaymentEventName } from '@paymount/core';
import { PAYMENT_EVENT_METADATA } from './on-payment-event.decorator';
import { PaymentsService } from './payments.service';

/**
 * Finds every `@OnPaymentEvent` method on the application's providers and
 * controllers and subscribes it to the payment handlers, so a verified webhook
 * reaches it exactly once.
 */
@Injectable()
export class PaymentEventExplorer implements OnModuleInit, OnModuleDestroy {
  private readonly unsubscribes: Array<() => void> = [];

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
    @Inject(Reflector) private readonly reflector: Reflector,
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

  onModuleDestroy(): void {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
  }

  private subscribeMethodsOf(instance: Record<string, unknown>): void {
    for (const name of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
      const method = instance[name];
      if (typeof method !== 'function') continue;
      const events = this.reflector.get<PaymentEventName[] | undefined>(PAYMENT_EVENT_METADATA, method);
      for (const event of events ?? []) {
        this.unsubscribes.push(this.payments.handlers.on(event, (method as PaymentEventHandler).bind(instance)));
      }
    }
  }
}
