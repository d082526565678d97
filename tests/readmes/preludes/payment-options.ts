// Prelude "payment-options": your payment options.
import type { PaymentHandlersOptions } from '@paymount/core';
declare const options: PaymentHandlersOptions;
