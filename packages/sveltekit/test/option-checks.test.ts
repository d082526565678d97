import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentHandlers, type PaymentHandlersOptions } from '../src';

// The handlers take the routes' options (the mount path is read from the route, or given apart), checked when first asked for the routes.
describeOptionChecks('paymentHandlers', (options) => paymentHandlers(options as unknown as PaymentHandlersOptions).getPaymentRoutes(), []);
