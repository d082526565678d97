import type { ServerInit } from '@sveltejs/kit';
import { ConfigError } from './config.js';
import { announce } from './shop-services.js';
import { startShop, stopShop } from '$lib/server/shop.js';

// Once, before the first request: the sandbox (in development) and the database.
export const init: ServerInit = async () => {
	try {
		announce(await startShop());
	} catch (error) {
		// A setting's problem is the whole message; anything else keeps its stack.
		console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
		process.exit(1);
	}
};

// adapter-node announces it once it has stopped taking requests (SIGTERM, SIGINT).
process.once('sveltekit:shutdown', () => void stopShop());
