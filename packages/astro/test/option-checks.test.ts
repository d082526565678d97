import type { APIContext } from 'astro';
import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentEndpoints, type PaymentEndpointsOptions } from '../src';

// The endpoints take the routes' options only (the mount path is where the endpoint file sits), checked when first asked for the routes.
describeOptionChecks('paymentEndpoints', (options) => paymentEndpoints(options as unknown as PaymentEndpointsOptions).getPaymentRoutes({} as APIContext), []);
