import { runFromCommandLine } from '@paymount/example-shop-kit';
import { startExpressShop } from './shop';

await runFromCommandLine(startExpressShop);
