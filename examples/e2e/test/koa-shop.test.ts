import { startKoaShop } from '@paymount/example-koa-shop';
import { describeShopJourneys } from './support/shop-journeys';

// Every journey on a PostgreSQL server (DATABASE_URL); the Express and NestJS shops run every journey on PGlite.
describeShopJourneys('Koa shop', startKoaShop, 'PostgreSQL');
