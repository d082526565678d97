import { Module, type DynamicModule } from '@nestjs/common';
import { PaymentsModule } from '@paymount/nestjs';
import { PaymentEvents } from './payment-events.js';
import { MOUNT } from './payments.js';
import { ShopController } from './shop.controller.js';
import { Shop } from './shop.js';

@Module({})
export class AppModule {
  /** paymount's PaymentsModule at /payments with the shop's payment options, the shop's pages, its webhook handlers. */
  static forShop(shop: Shop): DynamicModule {
    // The handlers are PaymentEvents' @OnPaymentEvent methods, not the `on` option: each event runs them once.
    const { on: _handlers, ...options } = shop.payments;
    return {
      module: AppModule,
      imports: [PaymentsModule.forRoot({ ...options, mountPath: MOUNT })],
      controllers: [ShopController],
      providers: [{ provide: Shop, useValue: shop }, PaymentEvents],
    };
  }
}
