// Prelude "koa-options": the Koa app and the payment options of the quick start.
import type Koa from 'koa';
import type { PaymentMiddlewareOptions } from '@paymount/koa';
declare const app: Koa;
declare const options: Omit<PaymentMiddlewareOptions, 'mountPath' | 'prefix'>;
