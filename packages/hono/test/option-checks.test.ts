import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentApp, type PaymentAppOptions } from '../src';

// The app takes the routes' options only: Hono mounts it (`app.route('/payments', payments)`).
describeOptionChecks('paymentApp', (options) => paymentApp(options as unknown as PaymentAppOptions), []);
