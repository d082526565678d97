import { runFromCommandLine } from '@paymount/example-shop-kit';
import { startKoaShop } from './shop';

await runFromCommandLine(startKoaShop);
