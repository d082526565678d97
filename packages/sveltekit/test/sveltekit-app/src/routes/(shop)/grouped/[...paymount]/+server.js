import { paymentHandlers } from '@paymount/sveltekit';
import { paymentOptions } from '$lib/server/payments';

// The README's options in a route of a group: the group is no part of the URL, so the mount is /grouped.
export const { GET, POST, HEAD, fallback, trailingSlash } = paymentHandlers(paymentOptions);
