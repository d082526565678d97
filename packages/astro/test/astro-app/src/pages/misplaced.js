import { paymentEndpoints } from '@paymount/astro';
import { paymentOptions } from '../../payments.ts';

// The README's endpoints exported from a route without a rest parameter: no mount path can be read from it.
export const prerender = false;

export const { GET, POST, HEAD, ALL } = paymentEndpoints(paymentOptions);
