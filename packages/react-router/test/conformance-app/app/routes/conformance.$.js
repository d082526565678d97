import { paymentRoute } from '@paymount/react-router';
import { testOptions } from '../test-options.js';

const payments = paymentRoute(testOptions());
export const loader = payments.loader;
export const action = payments.action;
