import { FRESH_ORDER_PREFIX, WALLET_TOKEN } from '../fixtures/shop';
import type { Figure } from '../harness/results';
import { withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import { measureRoutePair, routeFigures, startRouteBench } from './routes';

/**
 * POST /wallet/pay mounted with @paymount/express, every request a new order,
 * with the per-order guard keeping its attempts in the default memory store vs
 * the same route over an order store that keeps nothing (the guard then never
 * finds an attempt: what the route costs without it). The stub is the service.
 */
export async function walletFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const { upstream, load } = await startRouteBench(scope);
    const runs = await measureRoutePair(
      scope,
      settings,
      load,
      { framework: 'express', upstream },
      { kind: 'wallet-pay', path: '/payments/wallet/pay', orderPrefix: FRESH_ORDER_PREFIX, token: WALLET_TOKEN },
      200,
      [
        { name: 'guarded', side: 'paymount', variant: { orders: 'memory' } },
        { name: 'unguarded', side: 'paymount', variant: { orders: 'none' } },
      ],
    );
    return routeFigures(
      'wallet-pay-guard',
      'POST /wallet/pay (@paymount/express, a new order each request) with the per-order guard on its memory store vs over a store that keeps nothing',
      runs,
      { throughput: 0.9 },
    );
  });
}
