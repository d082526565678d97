import { paymentHandlers } from '@paymount/sveltekit';
import { closeShopServices, keepReconciling, openShopServices, type ShopServices } from '../../shop-services.js';

let running: ShopServices | undefined;

/** What the pages and paymount's routes run on, once `init` in hooks.server.ts has started it. */
export function shop(): ShopServices {
	if (!running) throw new Error('The shop has not started: init in src/hooks.server.ts starts it.');
	return running;
}

/** paymount's routes, made on their first request from the running shop's options. */
export const payments = paymentHandlers(() => shop().payments);

export async function startShop(): Promise<ShopServices> {
	running = await openShopServices();
	keepReconciling(() => payments.getPaymentRoutes());
	return running;
}

export async function stopShop(): Promise<void> {
	if (running) await closeShopServices(running, await payments.getPaymentRoutes());
	running = undefined;
}
