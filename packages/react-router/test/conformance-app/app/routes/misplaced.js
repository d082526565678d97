import { paymentRoute } from '@paymount/react-router';
import { testOptions } from '../test-options.js';

// The payment route's exports on a route without a splat: the mount path cannot be read.
const payments = paymentRoute(testOptions());
export const loader = payments.loader;
export const action = payments.action;
