import { startKoaShop } from '@paymount/example-koa-shop';
// The three shops share their order code (shop-kit): one on a PostgreSQL server covers DATABASE_URL, the others PGlite, `npm start`'s default.
import { describeShopJourneys } from './support/shop-journeys';

describeShopJourneys('Koa shop', startKoaShop, 'PostgreSQL');
