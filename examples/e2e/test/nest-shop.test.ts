import { startNestShop } from '@paymount/example-nest-shop';
import { describeShopJourneys } from './support/shop-journeys';

describeShopJourneys('NestJS shop', startNestShop, 'PGlite');
