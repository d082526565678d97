import { startKoaShop } from '@paymount/example-koa-shop';
import { describeShopJourneys } from './support/shop-journeys';

describeShopJourneys('Koa shop', startKoaShop);
