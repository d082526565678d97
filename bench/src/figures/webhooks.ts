import type { TimedLoopResult } from '../harness/closed-loop';
import { cpuPairsFor, cpuRatiosOf, pairedRuns } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import { WEBHOOK_SECRET } from '../fixtures/shop';
import { PAYLOAD_BYTES } from '../fixtures/webhook-delivery';
import type { VerifyRequest, VerifySide } from '../subjects/webhook-micro';
import { measureRoutePair, routeFigures, startRouteBench } from './routes';

/** CPU-only loops need less time than servers to settle. */
const MICRO_DURATION_MS = 500;
const VERIFY_SIDES: readonly VerifySide[] = ['paymount', 'bare'];

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
    for (const side of VERIFY_SIDES) await measure(side, MICRO_DURATION_MS);
    const verifyRuns = await pairedRuns(
      cpuPairsFor(settings.runs),
      VERIFY_SIDES.map((side) => ({ name: side, measure: async () => (await measure(side, MICRO_DURATION_MS)).cpuMicrosPerOp })),
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
      verifyFigureOf({ paymount: verifyRuns.get('paymount')!, bare: verifyRuns.get('bare')! }, micro.ready.bytes),
      ...routeFigures(
        'webhook-route',
        'POST /webhook mounted with @paymount/express vs a hand-written Express route doing the same verification, distinct signed 1 KiB deliveries',
        routeRuns,
        { throughput: 0.9 },
      ),
    ];
  });
}

/**
 * webhook-verify from the CPU µs each side spent per delivery in each pair: the
 * bare check's over paymount's, so 0.8 means verifyWebhook costs 1.25 times the
 * bare steps.
 */
export function verifyFigureOf({ paymount, bare }: Readonly<Record<VerifySide, readonly number[]>>, bytes: number): Figure {
  return {
    id: 'webhook-verify',
    what: `verifyWebhook on a ${bytes}-byte delivery vs bare createHmac + timingSafeEqual + JSON.parse (CPU time per delivery, bare over paymount, ${paymount.length} pairs)`,
    ratio: cpuRatiosOf(paymount, bare),
    target: 0.8,
    higherIsBetter: true,
    absolute: { paymount: absoluteOf(paymount, 'CPU µs/delivery'), bare: absoluteOf(bare, 'CPU µs/delivery'), pairs: paymount.length },
  };
}
