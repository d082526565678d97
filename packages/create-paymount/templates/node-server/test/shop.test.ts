import { afterAll, beforeAll, describe } from 'vitest';
import { readConfig } from '../src/config.js';
import { startShop, type RunningShop } from '../src/server.js';
import { shopFlows } from './shop-flows.js';

let shop: RunningShop;
beforeAll(async () => {
  // The shop as `npm start` runs it, on a free port, with its orders on its PostgreSQL server (DATABASE_URL, see vitest.config.ts) or in memory.
  shop = await startShop({ config: { ...readConfig({ PORT: '0', DATABASE_URL: process.env['DATABASE_URL'] }), dataDir: undefined }, sandbox: { announce: false } });
});
afterAll(() => shop?.close());

describe('the shop on the embedded sandbox', () => {
  shopFlows(() => ({ url: shop.url, sandbox: shop.sandbox! }));
});
