import { fileURLToPath } from 'node:url';
import { runFromCommandLine } from '@paymount/example-shop-kit';
import { startNestShop } from './shop';

// The orders (and paymount's stores) survive a restart in this folder, unless DATABASE_URL names a server.
await runFromCommandLine(startNestShop, fileURLToPath(new URL('../data/', import.meta.url)));
