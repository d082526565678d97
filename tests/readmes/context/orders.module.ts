import { Injectable, Module } from '@nestjs/common';
import { OrderStore, orders } from './orders.js';

/** The Nest face of the same order store: `OrdersService` is what the Nest README injects. */
@Injectable()
export class OrdersService extends OrderStore {}

@Module({
  providers: [{ provide: OrdersService, useValue: orders }],
  exports: [OrdersService],
})
export class OrdersModule {}
