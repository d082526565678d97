import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentMiddleware, type PaymentMiddlewareOptions } from '../src';

describeOptionChecks('paymentMiddleware', (options) => paymentMiddleware(options as unknown as PaymentMiddlewareOptions), [
  { name: 'mountPath', misspelt: 'mountPth', wrongValue: 5, mustBe: "must be a path from the root such as '/payments'" },
]);

describeOptionChecks('paymentMiddleware, a mount path without its leading slash (it would never match)', (options) => paymentMiddleware(options as unknown as PaymentMiddlewareOptions), [
  { name: 'mountPath', misspelt: 'mountpth', wrongValue: 'payments', mustBe: "must be a path from the root such as '/payments' (starting with /, no query, no spaces)" },
]);
