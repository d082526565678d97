import { paymentEndpoints } from '@paymount/astro';
import { paymentOptions } from '../../../payments.ts';

// The README's endpoints behind the app's middleware that reads every POST's body (src/middleware.js).
export const prerender = false;

export const { GET, POST, HEAD, ALL } = paymentEndpoints(paymentOptions);
