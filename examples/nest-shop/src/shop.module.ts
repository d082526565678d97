import { Module, type DynamicModule } from '@nestjs/common';
import { PaymentsModule } from '@paymount/nestjs';
import { MOUNT_PATH, type Shop } from '@paymount/example-shop-kit';
import { PagesController } from './pages.controller';
import { PaymentEvents } from './payment-events';
import { SHOP } from './tokens';

@Module({})
export class ShopModule {
  static forShop(shop: Shop): DynamicModule {
    return {
      module: ShopModule,
      imports: [
        PaymentsModule.forRoot({
          path: MOUNT_PATH,
          ...shop.payments,
          // The amount charged comes from the server-side order, never from the browser.
          resolveOrder: (orderId) => shop.resolveOrder(orderId),
        }),
      ],
      controllers: [PagesController],
      providers: [{ provide: SHOP, useValue: shop }, PaymentEvents],
    };
  }
}
