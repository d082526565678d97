import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type RunningDev } from '../scripts/dev.mjs';
import { shopFlows } from './shop-flows.js';

/** A port nothing listens on now: wrangler dev must be told its port, which the Worker's own URL names. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The shop as `npm start` runs it, the Worker in `wrangler dev` (workerd), paymount's stores in its local Durable
// Object and the orders in a local D1 database of this run's own. Not @cloudflare/vitest-pool-workers: the sandbox is a
// Node server that must deliver its webhooks to the Worker over HTTP, and the pool's Worker listens on no port.
const state = mkdtempSync(join(tmpdir(), 'paymount-shop-state-'));
let shop: RunningDev;
beforeAll(async () => {
  shop = await startDev({ port: await freePort(), persistTo: state, quiet: true, sandbox: { announce: false } });
});
afterAll(async () => {
  await shop?.close();
  rmSync(state, { recursive: true, force: true });
});

describe('the Worker shop, in wrangler dev on the sandbox', () => {
  shopFlows(() => shop);

  it('serves the wallet button\'s script, @paymount/browser, as a static asset', async () => {
    const script = await fetch(`${shop.url}/assets/paymount-browser.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain('mountWalletButton');
  });
});
