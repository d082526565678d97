import { Module, type DynamicModule } from '@nestjs/common';
import { PaymentsModule } from '@paymount/nestjs';
import { MOUNT_PATH, type Shop } from '@paymount/example-shop-kit';
import { PagesController } from './pages.controller';
import { PaymentEvents } from './payment-events';
import { SHOP } from './tokens';

/** Provides the shop (orders, pages, payment settings) to the app and to the payments module's factory. */
@Module({})
class ShopStateModule {
  static of(shop: Shop): DynamicModule {
    return { module: ShopStateModule, providers: [{ provide: SHOP, useValue: shop }], exports: [SHOP] };
  }
}

@Module({})
export class ShopModule {
  static forShop(shop: Shop): DynamicModule {
    const state = ShopStateModule.of(shop);
    return {
      module: ShopModule,
      imports: [
        state,
        PaymentsModule.forRootAsync({
          mountPath: MOUNT_PATH,
          imports: [state],
          inject: [SHOP],
          useFactory: (shop: Shop) => ({
            ...shop.payments,
            // The amount charged comes from the server-side order, never from the browser.
            resolveOrder: (orderId: string) => shop.resolveOrder(orderId),
          }),
        }),
      ],
      controllers: [PagesController],
      providers: [PaymentEvents],
    };
  }
}
