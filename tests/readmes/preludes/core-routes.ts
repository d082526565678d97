// Prelude "core-handlers": the handlers the routes run on, a logger, your order store, a browser's wallet token.
import type { PaymentRoutes } from '@paymount/core';
import { orders } from './orders';
declare const handlers: PaymentRoutes;
declare const logger: { error(details: object, message: string): void };
declare const tokenFromTheBrowser: string;
