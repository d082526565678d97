import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentPlugin, type PaymentPluginOptions } from '../src';

// The plugin's own option, `prefix`, is checked with the routes' options, before Elysia sees it.
describeOptionChecks('paymentPlugin', (options) => paymentPlugin(options as unknown as PaymentPluginOptions), [
  { name: 'prefix', misspelt: 'prefx', wrongValue: 5, mustBe: "must be a path such as '/payments'" },
]);
