import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentRoute, type PaymentRouteOptions } from '../src';

// The route takes the routes' options only (the mount path is where the splat route sits), checked when it is made.
describeOptionChecks('paymentRoute', (options) => paymentRoute(options as unknown as PaymentRouteOptions), []);
