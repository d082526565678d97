import { paymentHandlers } from '@paymount/sveltekit';
import { paymentOptions } from '$lib/server/payments';

// The handlers exported from a route without a rest parameter: no mount path can be read from its id.
export const { POST } = paymentHandlers(paymentOptions);
