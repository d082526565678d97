// Prelude "core-routes": the payment routes object, a logger, your order store, a browser's wallet token.
import type { PaymentRoutes } from '@paymount/core';
import { orders } from './orders.js';
declare const paymentRoutes: PaymentRoutes;
declare const logger: { error(details: object, message: string): void };
declare const tokenFromTheBrowser: string;
