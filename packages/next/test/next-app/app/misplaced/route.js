import { paymentRouteHandlers } from '@paymount/next';
import { paymentOptions } from '../../payments';

// A merchant's mistake: the handlers exported from a route without a catch-all segment.
export const { GET, POST, HEAD } = paymentRouteHandlers(paymentOptions);
