import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readShopConfig, type ShopConfig } from './config';
import type { RunningShop, StartShopOptions } from './server';

/** One file for every example: `examples/.env`, beside `.env.example`. */
const ENV_FILE = fileURLToPath(new URL('../../.env', import.meta.url));

/** How long a clean stop may take before the process gives up waiting. */
const STOP_GRACE_MS = 5000;

/**
 * The `npm start` entry of every example: configuration from the environment,
 * the orders in PGlite under `dataDir` unless DATABASE_URL names a server,
 * the URL to open on the console, and a clean stop on Ctrl-C or SIGTERM.
 */
export async function runFromCommandLine(start: (options: StartShopOptions) => Promise<RunningShop>, dataDir: string): Promise<void> {
  let running: RunningShop;
  let config: ShopConfig;
  try {
    // Variables already in the environment win over the file.
    if (existsSync(ENV_FILE)) process.loadEnvFile(ENV_FILE);
    config = readShopConfig();
    running = await start({ config, dataDir });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
    return;
  }
  const against = running.sandbox
    ? `the embedded sandbox at ${running.sandbox.url} (set PAYMENT_* variables to use the real service)`
    : 'the payment service';
  console.log(`\n  ${running.shop.name} is running. Open ${running.url}/ in your browser.`);
  console.log(`  Payments go to ${against}.`);
  console.log(`  Orders are kept in ${running.database}${config.databaseUrl === undefined ? ' (set DATABASE_URL to use a PostgreSQL server)' : ''}.`);
  if (running.sandbox) console.log(`  Sessions, payments and every webhook delivery (with why one failed): ${running.sandbox.dashboardUrl}`);
  console.log('  Press Ctrl-C to stop.\n');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n  ${signal}: stopping ${running.shop.name}…`);
    setTimeout(() => {
      console.error(`  Still stopping after ${STOP_GRACE_MS} ms; exiting anyway.`);
      process.exit(1);
    }, STOP_GRACE_MS).unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('  Could not stop cleanly:', error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
