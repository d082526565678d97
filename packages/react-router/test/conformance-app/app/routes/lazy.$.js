import { paymentRoute } from '@paymount/react-router';

// Options made on the first request, by the function the test puts here.
const payments = paymentRoute((args) => globalThis[Symbol.for('@paymount/react-router.test.options-factory')](args));
export const loader = payments.loader;
export const action = payments.action;
