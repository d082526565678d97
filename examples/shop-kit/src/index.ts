export { CATALOG, SANDBOX_OUTCOME_PRODUCTS, catalogFor, type Product } from './catalog';
export { readShopConfig, type ServiceConfig, type ShopConfig } from './config';
export { consoleLogger } from './console-logger';
export { OrderStore, type Order, type OrderStatus } from './orders';
export { MOUNT_PATH, Shop, type ShopPaymentOptions, type ShopResponse, type ShopSetup } from './shop';
export { startShopServer, type RunningShop, type SandboxOptions, type ShopApp, type StartShopOptions } from './server';
export { runFromCommandLine } from './run';
