export { CATALOG, SANDBOX_OUTCOME_PRODUCTS, catalogFor, type Product } from './catalog';
export { readShopConfig, type ServiceConfig, type ShopConfig } from './config';
export { consoleLogger } from './console-logger';
export { BackOffice, type BackOfficeShop } from './back-office';
export { OrderStore, type Order, type OrderRefund, type OrderStatus, type RefundState } from './orders';
export { MOUNT_PATH, Shop, type ShopPaymentOptions, type ShopResponse, type ShopSetup } from './shop';
export { startShopServer, type RunningShop, type SandboxOptions, type ShopApp, type StartShopOptions } from './server';
export { runFromCommandLine } from './run';
export { migrateShopDatabase, openShopDatabase, type DatabaseLocation, type ShopDatabase } from './shop-database';
