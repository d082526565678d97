import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { paymentHandlers } from '@paymount/sveltekit';
import type { WalletSource } from '@paymount/sveltekit/components';
import { readConfig, type ShopConfig } from '../../config.js';
import { openDatabase, type ShopDatabase } from '../../database.js';
import { Orders } from '../../orders.js';
import { MOUNT, paymentOptions } from '../../payments.js';
import { StaffLogin } from '../../staff.js';

export const SHOP_NAME = 'Paymount shop';

/** What the shop runs on, made once by `init` in hooks.server.ts before the first request. */
export interface Shop {
	config: ShopConfig;
	/** The embedded sandbox, in development. */
	sandbox: Sandbox | undefined;
	database: ShopDatabase;
	orders: Orders;
	staff: StaffLogin;
	/** Where the shop is reached, without a trailing slash. */
	publicUrl: string;
	/** What the order page's wallet button loads: the sandbox's test wallet, or the wallet's client library. */
	wallet: WalletSource;
}

let running: Shop | undefined;

export function shop(): Shop {
	if (!running) throw new Error('The shop has not started: init in src/hooks.server.ts starts it.');
	return running;
}

/** paymount's routes, made on their first request from the running shop's options. */
export const payments = paymentHandlers(() => {
	const { config, sandbox, database, publicUrl } = shop();
	return paymentOptions({ config, sandbox, db: database.db, publicUrl, shopName: SHOP_NAME });
});

export { MOUNT };

/** Payments whose webhook never came are asked about this often, so an order still ends paid. */
const RECONCILE_EVERY_MS = 60_000;

/** The sandbox (in development) and the database, from the environment's settings. */
export async function startShop(): Promise<Shop> {
	const config = readConfig();
	const sandbox = config.service.kind === 'sandbox' ? await startSandbox({ allowLocalNotifyUrl: true, merchantName: SHOP_NAME }) : undefined;
	let database: ShopDatabase;
	try {
		database = await openDatabase(config);
	} catch (error) {
		await sandbox?.close();
		throw error;
	}
	// adapter-node's ORIGIN is set the same way (production-env.js).
	const publicUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
	running = {
		config,
		sandbox,
		database,
		orders: new Orders(database.db),
		staff: new StaffLogin(config.staffPassword, publicUrl.startsWith('https:')),
		publicUrl,
		wallet: sandbox ? { sandbox: sandbox.url } : { environment: config.walletEnvironment, scriptUrl: config.walletScriptUrl },
	};
	const reconciling = setInterval(() => {
		payments
			.getPaymentRoutes()
			.then((routes) => routes.reconcile())
			.catch((error: unknown) => console.error('Reconciliation failed; the next run tries again:', error));
	}, RECONCILE_EVERY_MS);
	reconciling.unref();
	return running;
}

/** After adapter-node stopped taking requests: the routes, then the sandbox and the database. */
export async function stopShop(): Promise<void> {
	if (!running) return;
	await (await payments.getPaymentRoutes()).close();
	await running.sandbox?.close();
	await running.database.close();
	running = undefined;
}
