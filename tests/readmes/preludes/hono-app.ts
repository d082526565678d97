// Prelude "hono-app": what the Hono README's quick start defined.
import type { Hono } from 'hono';
import { paymentRoutes } from '@paymount/hono';
import { orders } from './orders.js';
declare const app: Hono;
declare const payments: ReturnType<typeof paymentRoutes>;
declare const notifyUrl: string;
