import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentHandlers, type PaymentHandlersOptions } from '../src';

// The handlers take the routes' options only (the mount path is where the route file sits), checked when first asked for the routes.
describeOptionChecks('paymentHandlers', (options) => paymentHandlers(() => options as unknown as PaymentHandlersOptions).getPaymentRoutes(), []);
