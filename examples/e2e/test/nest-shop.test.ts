import { startNestShop } from '@paymount/example-nest-shop';
import { describeShopJourneys } from './support/shop-journeys';

// Every journey on PGlite (`npm start`'s default); the Koa shop runs every journey on a PostgreSQL server.
describeShopJourneys('NestJS shop', startNestShop, 'PGlite');
