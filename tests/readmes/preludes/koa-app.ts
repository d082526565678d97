// Prelude "koa-app": what the Koa README's quick start defined.
import type Koa from 'koa';
import { paymentMiddleware } from '@paymount/koa';
import { orders } from './orders.js';
declare const app: Koa;
declare const payments: ReturnType<typeof paymentMiddleware>;
declare const notifyUrl: string;
