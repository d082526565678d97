import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentRoutes, type PaymentRoutesAppOptions } from '../src';

// The app takes the routes' options only: Hono mounts it (`app.route('/payments', payments)`).
describeOptionChecks('paymentRoutes', (options) => paymentRoutes(options as unknown as PaymentRoutesAppOptions), []);
