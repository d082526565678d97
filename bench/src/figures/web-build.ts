import type { ClosedLoopResult, TimedLoopResult } from '../harness/closed-loop';
import { cpuPairsFor, cpuRatiosOf, pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import type { WebBuildSide } from '../subjects/web-build';

/** How Node is told to load @paymount/core's web build: the exports map sends `worker` to dist/web. */
const WEB_BUILD_FLAGS = ['--conditions=worker'];
/** CPU-only loops need less time than servers to settle (as webhooks.ts). */
const MICRO_DURATION_MS = 500;

/**
 * The web build's two platform pieces, measured in Node against what a
 * merchant would write with the same Web APIs: createCheckoutSession through
 * the fetch transport vs a bare fetch() of the same call, and verifyWebhook
 * on Web Crypto vs a bare crypto.subtle.verify + JSON.parse.
 */
export async function webBuildFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const stub = await scope.start<{ url: string }>(subject('envelope-server'));
    const clientSides: readonly WebBuildSide[] = ['paymount-fetch', 'fetch', 'fetch-with-timeout'];
    const callers = await Promise.all(
      clientSides.map((side) => scope.start(subject('web-build'), { side, upstream: stub.ready.url, connections: settings.connections }, WEB_BUILD_FLAGS)),
    );
    const window = { warmupMs: settings.warmupMs, durationMs: settings.durationMs, maxOps: settings.maxOps };
    for (const caller of callers) await caller.request({ ...window, warmupMs: 0, durationMs: 4 * settings.warmupMs }, 10 * settings.warmupMs + 15_000);
    const clientRuns = await pairedRuns(
      settings.runs,
      clientSides.map((side, index) => ({
        name: side,
        measure: async () => {
          const result = await callers[index]!.request<ClosedLoopResult>(window, settings.warmupMs + settings.durationMs + 15_000);
          if (result.ops === 0 || result.failures > 0) throw new Error(`the ${side} client failed ${result.failures} of ${result.ops} calls`);
          return result.opsPerSecond;
        },
      })),
    );

    const verifySides: readonly WebBuildSide[] = ['paymount-web-verify', 'bare-web-verify'];
    const verifiers = await Promise.all(verifySides.map((side) => scope.start<{ bytes: number }>(subject('web-build'), { side }, WEB_BUILD_FLAGS)));
    const measure = (index: number) => verifiers[index]!.request<TimedLoopResult>({ durationMs: MICRO_DURATION_MS, maxOps: 5_000_000 }, MICRO_DURATION_MS + 10_000);
    for (const index of verifySides.keys()) await measure(index);
    const verifyRuns = await pairedRuns(
      cpuPairsFor(settings.runs),
      verifySides.map((side, index) => ({ name: side, measure: async () => (await measure(index)).cpuMicrosPerOp })),
    );

    return webBuildFiguresOf(
      { paymount: clientRuns.get('paymount-fetch')!, bare: clientRuns.get('fetch')!, timed: clientRuns.get('fetch-with-timeout')! },
      { paymount: verifyRuns.get('paymount-web-verify')!, bare: verifyRuns.get('bare-web-verify')! },
      verifiers[0]!.ready.bytes,
      settings.connections,
    );
  });
}

type Pair = Readonly<{ paymount: readonly number[]; bare: readonly number[] }>;
/** The client's sides: `timed` is the bare fetch given an abort signal with a time limit. */
type ClientSides = Pair & Readonly<{ timed: readonly number[] }>;

/**
 * The figures and their targets, from the runs each side made. A fetch given an abort signal
 * costs the runtime's fetch more per call than one without (undici's Request follows the
 * signal); paymount's per-attempt timeout needs one, so `fetch-signal-cost` measures what
 * that part costs outside paymount, and `client-fetch-vs-timed-fetch` what paymount adds
 * over a bare call that can time out. Both client ratios are reported: their calls/s spread
 * wider than the gap to a target, so paymount's cost over the timed call is held to 0.9 in
 * instructions (instructions.ts), and the comparison with a fetch that cannot time out
 * is mostly the signal's.
 */
export function webBuildFiguresOf(client: ClientSides, verify: Pair, bytes: number, connections: number): Figure[] {
  return [
    {
      id: 'client-fetch-vs-fetch',
      what: `createCheckoutSession through @paymount/core's web build (the fetch transport) vs a bare fetch() of the same body, envelope parsed with response.json() (calls/s, ${connections} in flight, in Node); reported: the bare call cannot time out, and the signal an attempt's timeout needs is fetch-signal-cost`,
      ratio: ratiosOf(client.paymount, client.bare),
      target: null,
      higherIsBetter: true,
      absolute: { paymount: absoluteOf(client.paymount, 'calls/s'), bare: absoluteOf(client.bare, 'calls/s'), inFlight: connections },
    },
    {
      id: 'client-fetch-vs-timed-fetch',
      what: `the same createCheckoutSession vs a bare fetch() given signal: AbortSignal.timeout() (calls/s, ${connections} in flight, in Node): what paymount adds over a bare call that can time out; reported, held to 0.9 in instructions by client-fetch-instructions`,
      ratio: ratiosOf(client.paymount, client.timed),
      target: null,
      higherIsBetter: true,
      absolute: { paymount: absoluteOf(client.paymount, 'calls/s'), timed: absoluteOf(client.timed, 'calls/s'), inFlight: connections },
    },
    {
      id: 'fetch-signal-cost',
      what: `a bare fetch() given signal: AbortSignal.timeout() vs the same without a signal (calls/s, ${connections} in flight, in Node): the runtime's own cost of a fetch that can be aborted, outside paymount`,
      ratio: ratiosOf(client.timed, client.bare),
      target: null,
      higherIsBetter: true,
      absolute: { timed: absoluteOf(client.timed, 'calls/s'), bare: absoluteOf(client.bare, 'calls/s'), inFlight: connections },
    },
    {
      id: 'webhook-verify-web',
      what: `verifyWebhook on @paymount/core's web build (Web Crypto) on a ${bytes}-byte delivery vs a bare crypto.subtle.verify with the key imported once + JSON.parse (CPU time per delivery, bare over paymount, ${verify.paymount.length} pairs, in Node)`,
      ratio: cpuRatiosOf(verify.paymount, verify.bare),
      target: 0.8,
      higherIsBetter: true,
      absolute: { paymount: absoluteOf(verify.paymount, 'CPU µs/delivery'), bare: absoluteOf(verify.bare, 'CPU µs/delivery'), pairs: verify.paymount.length },
    },
  ];
}
