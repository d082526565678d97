import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentRouteHandlers, type PaymentRouteHandlersOptions } from '../src';

// The handlers take the routes' options only (the mount path is where the route file sits), checked when first asked for the routes.
describeOptionChecks('paymentRouteHandlers', (options) => paymentRouteHandlers(() => options as unknown as PaymentRouteHandlersOptions).getPaymentRoutes(), []);
