// Prelude "core-handlers": the handlers the routes run on, a logger, your order store, a browser's wallet token.
import type { PaymentHandlers } from '@paymount/core';
import { orders } from './orders';
declare const handlers: PaymentHandlers;
declare const logger: { error(details: object, message: string): void };
declare const tokenFromTheBrowser: string;
