import { ConfigError } from './config';
import { shop } from './shop';
import { announce } from './shop-services';

/** Starts the process's shop and prints where it is; a bad setting ends the process, naming it. */
export async function startShop(): Promise<void> {
  try {
    announce(await shop());
  } catch (error) {
    // A setting's problem is the whole message; anything else keeps its stack.
    console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
    process.exit(1);
  }
}
