import { runFromCommandLine } from '@paymount/example-shop-kit';
import { startNestShop } from './shop';

await runFromCommandLine(startNestShop);
