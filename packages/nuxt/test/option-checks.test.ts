import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentHandler, type PaymentHandlerOptions } from '../src';

// The handler takes the routes' options only: the mount path is where its catch-all route file sits.
describeOptionChecks('paymentHandler', (options) => paymentHandler(options as unknown as PaymentHandlerOptions), []);
