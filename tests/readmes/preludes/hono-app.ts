// Prelude "hono-app": what the Hono README's quick start defined.
import type { Hono } from 'hono';
import { paymentApp } from '@paymount/hono';
import { orders } from './orders.js';
declare const app: Hono;
declare const payments: ReturnType<typeof paymentApp>;
declare const notifyUrl: string;
