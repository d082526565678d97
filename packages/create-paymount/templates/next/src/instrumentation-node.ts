import { ConfigError } from './config';
import { shop } from './shop';

/** Starts the process's shop and prints where it is; a bad setting ends the process, naming it. */
export async function startShop(): Promise<void> {
  try {
    const running = await shop();
    console.log(`Shop:      ${running.url}`);
    if (running.sandbox) {
      console.log(`Dashboard: ${running.sandbox.dashboardUrl}   (the embedded sandbox: payments, webhooks, refunds)`);
      console.log(`Refunds:   ${running.url}/login (the staff password: STAFF_PASSWORD, "staff" when not set)`);
    }
    console.log(`Orders:    ${running.database}`);
  } catch (error) {
    // A setting's problem is the whole message; anything else keeps its stack.
    console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
    process.exit(1);
  }
}
