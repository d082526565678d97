// Prelude "express-app": what the Express README's quick start defined.
import express from 'express';
import { paymentRouter } from '@paymount/express';
import { orders } from './orders.js';
declare const app: express.Express;
declare const payments: ReturnType<typeof paymentRouter>;
declare const notifyUrl: string;
