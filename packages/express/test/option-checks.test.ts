import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentRouter, type PaymentRouterOptions } from '../src';

// The router takes the routes' options only: Express mounts it (`app.use('/payments', router)`).
describeOptionChecks('paymentRouter', (options) => paymentRouter(options as unknown as PaymentRouterOptions), []);
