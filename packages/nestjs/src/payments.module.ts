import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { PaymentEventExplorer } from './payment-event.explorer';
import { ConfigurablePaymentsModule } from './payments.module-definition';
import { PaymentsService } from './payments.service';

/**
 * Serves the payment routes and provides PaymentsService.
 *
 * `PaymentsModule.forRoot({ client, resolveOrder, webhook, ... })` or
 * `PaymentsModule.forRootAsync({ imports, inject, useFactory })`; both take
 * `mountPath` (default 'payments'), `isGlobal` and `controllerDecorators` (e.g.
 * `[Public()]` for a global auth guard). The app must be created with
 * `NestFactory.create(AppModule, { rawBody: true })` so webhooks can be verified.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [PaymentsService, PaymentEventExplorer],
  exports: [PaymentsService],
})
export class PaymentsModule extends ConfigurablePaymentsModule {}
