import { existsSync } from 'node:fs';
import { ConfigError } from './config.js';
import { startShop } from './server.js';

// Settings from .env when there is one; the environment's own win.
if (existsSync('.env')) process.loadEnvFile('.env');

// In a function, not at the top level: a CommonJS project (the NestJS template) has no top-level await.
async function main(): Promise<void> {
  try {
    const running = await startShop();
    console.log(`Shop:      ${running.url}`);
    if (running.sandbox) {
      console.log(`Dashboard: ${running.sandbox.dashboardUrl}   (the embedded sandbox: payments, webhooks, refunds)`);
      console.log(`Refunds:   ${running.url}/login (the staff password: STAFF_PASSWORD, "staff" when not set)`);
    }
    console.log(`Orders:    ${running.database}`);
    const stop = () => {
      running.close().then(() => process.exit(0), () => process.exit(1));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    // A setting's problem is the whole message; anything else keeps its stack.
    console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
    process.exit(1);
  }
}

void main();
