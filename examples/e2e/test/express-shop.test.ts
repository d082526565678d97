import { startExpressShop } from '@paymount/example-express-shop';
import { describeShopJourneys } from './support/shop-journeys';

describeShopJourneys('Express shop', startExpressShop, 'PGlite');
