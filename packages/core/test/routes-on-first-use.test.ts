import { afterEach, describe, expect, it, vi } from 'vitest';
import { routesOnFirstUse } from '../src/entries/http';
import type { PaymentRoutes, PaymentRoutesOptions } from '../src';

const OPTIONS = {
  client: { baseUrl: 'https://pay.example.com', apiKey: 'sk_test_0123456789abcdefghijklmnopqrstuv', appId: 'app-1', merchantId: 'merchant-1' },
  resolveOrder: () => null,
  webhook: { secret: 'whsec_0123456789abcdefghijklmnopqrstuv' },
} satisfies PaymentRoutesOptions;

const made: PaymentRoutes[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((routes) => routes.close()));
});

describe('routesOnFirstUse', () => {
  it('makes the routes once, on the first call: concurrent first calls share them, later calls get them back', async () => {
    const factory = vi.fn(async (env: { key: string }) => ({ ...OPTIONS, client: { ...OPTIONS.client, apiKey: env.key } }));
    const routesFor = routesOnFirstUse(factory);
    const env = { key: OPTIONS.client.apiKey };
    const [first, second] = await Promise.all([routesFor(env), routesFor(env)]);
    made.push(first);
    expect(second).toBe(first);
    expect(await routesFor(env)).toBe(first);
    expect(factory).toHaveBeenCalledTimes(1);
  });

  it('asks again after a factory that threw or gave refused options, and keeps the first routes it could make', async () => {
    const answers: (() => PaymentRoutesOptions)[] = [
      () => {
        throw new Error('PAYMENT_API_KEY is not set');
      },
      () => ({ ...OPTIONS, client: { ...OPTIONS.client, apiKey: 'short' } }),
      () => OPTIONS,
    ];
    const factory = vi.fn(() => answers[factory.mock.calls.length - 1]!());
    const routesFor = routesOnFirstUse(factory);
    await expect(routesFor()).rejects.toThrow('PAYMENT_API_KEY is not set');
    await expect(routesFor()).rejects.toMatchObject({ issues: [expect.objectContaining({ path: 'client.apiKey' })] });
    const routes = await routesFor();
    made.push(routes);
    expect(await routesFor()).toBe(routes);
    expect(factory).toHaveBeenCalledTimes(3);
  });
});
