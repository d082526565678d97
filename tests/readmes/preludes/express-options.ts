// Prelude "express-options": an Express app and your payment options.
import type { Express } from 'express';
import type { PaymentRoutesOptions } from '@paymount/core';
import { paymentRouter } from '@paymount/express';
declare const app: Express;
declare const options: PaymentRoutesOptions;
