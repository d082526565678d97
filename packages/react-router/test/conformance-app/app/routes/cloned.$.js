import { paymentRoute } from '@paymount/react-router';
import { testOptions } from '../test-options.js';

// The fix the log gives for consumed.$.js: the middleware reads a copy.
export const middleware = [
  async ({ request }, next) => {
    await request.clone().text();
    return next();
  },
];

const payments = paymentRoute(testOptions());
export const loader = payments.loader;
export const action = payments.action;
