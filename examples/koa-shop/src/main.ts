import { fileURLToPath } from 'node:url';
import { runFromCommandLine } from '@paymount/example-shop-kit';
import { startKoaShop } from './shop';

// The orders (and paymount's stores) survive a restart in this folder, unless DATABASE_URL names a server.
await runFromCommandLine(startKoaShop, fileURLToPath(new URL('../data/', import.meta.url)));
