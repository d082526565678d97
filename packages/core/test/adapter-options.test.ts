import { describe, expect, it } from 'vitest';
import { createPaymentRoutes, PaymentValidationError, type AdapterOptionKinds, type PaymentRoutesOptions } from '../src';

const OPTIONS = {
  client: { baseUrl: 'https://pay.example.com', apiKey: 'sk_test_0123456789abcdefghijklmnopqrstuv', appId: 'app-1', merchantId: 'merchant-1' },
  resolveOrder: () => null,
  webhook: { secret: 'whsec_0123456789abcdefghijklmnopqrstuv' },
} satisfies PaymentRoutesOptions;

const OWN: AdapterOptionKinds = { mountPath: 'mountPath', prefix: 'routerPath', isGlobal: 'boolean', controllerDecorators: 'classDecorators', workers: 'startWorkers' };

function issuesOf(options: object, kinds?: AdapterOptionKinds) {
  try {
    createPaymentRoutes(options as PaymentRoutesOptions, kinds);
  } catch (error) {
    if (error instanceof PaymentValidationError) return error.issues;
    throw error;
  }
  return [];
}

describe("an adapter's own options, given to createPaymentRoutes with their kinds", () => {
  it('are accepted, left out of what the routes read, and still refused where no adapter declares them', async () => {
    const own = { mountPath: '/payments', prefix: 'payments', isGlobal: true, controllerDecorators: [() => undefined], workers: () => ({}) };
    const routes = createPaymentRoutes({ ...OPTIONS, ...own } as PaymentRoutesOptions, OWN);
    expect(routes.routePaths).toContain('/webhook');
    await routes.close();
    expect(issuesOf({ ...OPTIONS, mountPath: '/payments' })).toEqual([expect.objectContaining({ path: 'mountPath', rule: 'unknown_field' })]);
  });

  it('are held to the rule of their kind, in paymount’s words, in one error with the routes’ and the client’s issues', () => {
    const issues = issuesOf(
      { ...OPTIONS, mountPath: 'payments?x', prefix: 5, isGlobal: 'yes', controllerDecorators: [5], workers: {}, bodyLimitBytes: -1, client: { ...OPTIONS.client, timeoutMS: 1 } },
      OWN,
    );
    expect(issues).toEqual([
      { path: 'bodyLimitBytes', rule: 'min', message: expect.stringContaining('greater than 0') },
      { path: 'mountPath', rule: 'pattern', message: "must be a path from the root such as '/payments' (starting with /, no query, no spaces)" },
      { path: 'prefix', rule: 'type', message: "must be a path such as '/payments'" },
      { path: 'isGlobal', rule: 'type', message: 'must be true or false' },
      { path: 'controllerDecorators.0', rule: 'type', message: 'must be a class decorator such as Public()' },
      { path: 'workers', rule: 'type', message: 'must be a function (routes) => workers, such as (routes) => startWebhookWorkers(queue, { routes })' },
      { path: 'client.timeoutMS', rule: 'unknown_field', message: 'is not an option; did you mean `timeoutMs`?' },
    ]);
  });

  it('are known names: a slip of one is answered with it', () => {
    expect(issuesOf({ ...OPTIONS, mountPth: '/payments' }, OWN)).toEqual([
      { path: 'mountPth', rule: 'unknown_field', message: 'is not an option; did you mean `mountPath`?' },
    ]);
  });
});
