import { paymentRoute } from '@paymount/react-router';
import { testOptions } from '../test-options.js';

// A route middleware that reads the request's own body before the payment routes.
export const middleware = [
  async ({ request }, next) => {
    await request.text();
    return next();
  },
];

const payments = paymentRoute(testOptions());
export const loader = payments.loader;
export const action = payments.action;
