import Fastify from 'fastify';
import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { paymentPlugin, type PaymentPluginOptions } from '../src';

describeOptionChecks(
  'paymentPlugin',
  async (options) => {
    const app = Fastify();
    try {
      await app.register(paymentPlugin, options as unknown as PaymentPluginOptions);
      await app.ready();
    } finally {
      await app.close().catch(() => undefined);
    }
  },
  [{ name: 'prefix', misspelt: 'prefx', wrongValue: 5, mustBe: "must be a path such as '/payments'" }],
);
