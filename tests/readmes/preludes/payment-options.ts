// Prelude "payment-options": your payment options.
import type { PaymentRoutesOptions } from '@paymount/core';
declare const options: PaymentRoutesOptions;
