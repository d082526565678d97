import type { TimedLoopResult } from '../harness/closed-loop';
import { pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import { WEBHOOK_SECRET } from '../fixtures/shop';
import { PAYLOAD_BYTES } from '../fixtures/webhook-delivery';
import type { VerifyRequest, VerifySide } from '../subjects/webhook-micro';
import { measureRoutePair, routeFigures, startRouteBench } from './routes';

/** CPU-only loops need less time than servers to settle. */
const MICRO_DURATION_MS = 500;

/**
 * Figure 3: verifyWebhook on a 1 KiB delivery vs the bare createHmac +
 * timingSafeEqual + JSON.parse; then the mounted Express /webhook route vs a
 * hand-written one doing the same verification (and a bounded dedupe), every
 * delivery freshly signed and distinct.
 */
export async function webhookFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const micro = await scope.start<{ bytes: number }>(subject('webhook-micro'));
    const measure = (side: VerifySide, durationMs: number) =>
      micro.request<TimedLoopResult>({ side, durationMs, maxOps: 5_000_000 } satisfies VerifyRequest, durationMs + 10_000);
    for (const side of ['paymount', 'bare'] as const) await measure(side, MICRO_DURATION_MS);
    const verifyRuns = await pairedRuns(
      settings.runs,
      (['paymount', 'bare'] as const).map((side) => ({ name: side, measure: async () => (await measure(side, MICRO_DURATION_MS)).opsPerCpuSecond })),
    );

    const { upstream, load } = await startRouteBench(scope);
    const routeRuns = await measureRoutePair(
      scope,
      settings,
      load,
      { framework: 'express', upstream },
      { kind: 'webhook', path: '/payments/webhook', secret: WEBHOOK_SECRET, payloadBytes: PAYLOAD_BYTES },
      200,
    );

    return [
      {
        id: 'webhook-verify',
        what: `verifyWebhook on a ${micro.ready.bytes}-byte delivery vs bare createHmac + timingSafeEqual + JSON.parse (ops per CPU-second)`,
        ratio: ratiosOf(verifyRuns.get('paymount')!, verifyRuns.get('bare')!),
        target: 0.8,
        higherIsBetter: true,
        absolute: { paymount: absoluteOf(verifyRuns.get('paymount')!, 'ops/CPU-s'), bare: absoluteOf(verifyRuns.get('bare')!, 'ops/CPU-s') },
      },
      ...routeFigures(
        'webhook-route',
        'POST /webhook mounted with @paymount/express vs a hand-written Express route doing the same verification, distinct signed 1 KiB deliveries',
        routeRuns,
        { throughput: 0.9 },
      ),
    ];
  });
}
