import { instructionsPerOp, valgrindAvailable } from '../harness/callgrind';
import { spreadOf } from '../harness/stats';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope } from '../harness/scope';

/** Calls before the count starts: V8 still compiles the hot code now and then after 5,000 (--trace-opt). */
const WARMUP_CALLS = 10_000;
/** Calls counted: enough that the scavenges falling in the window average out. */
const COUNTED = 4_000;

export async function valgrindMissing(): Promise<string | undefined> {
  return valgrindAvailable() ? undefined : 'valgrind is not on PATH, so client-fetch-instructions and client-telemetry were not measured (apt-get install valgrind)';
}

/** One side of a counted pair: a side of subjects/call-loop.ts, and the Node flags it runs with. */
interface CountedSide {
  side: string;
  nodeFlags?: readonly string[];
}

/** What a counted figure compares: paymount's side against the baseline's, in instructions per call. */
export interface CountedPair {
  id: string;
  what: string;
  paymount: CountedSide;
  baseline: CountedSide;
  target: number;
  /** Counted pairs, both sides anew each time: more than one where a side's count moves between runs by more than the gap to the target. */
  runs: number;
}

/** The web build: the fetch sides of call-loop run with the `worker` condition, so core resolves to its fetch transport. */
const WEB_BUILD = ['--conditions=worker'];

export const COUNTED_PAIRS: readonly CountedPair[] = [
  {
    // The same pair as client-fetch-vs-timed-fetch, whose CPU per call spreads wide on a busy machine; counts repeat.
    id: 'client-fetch-instructions',
    what: `createCheckoutSession through @paymount/core's web build (the fetch transport) vs a bare fetch() with the cheapest time limit (an AbortController aborted by a setTimeout it clears), in instructions per call (callgrind, ${COUNTED} calls counted after ${WARMUP_CALLS}, 20 in flight, in Node; bare over paymount)`,
    paymount: { side: 'paymount-fetch', nodeFlags: WEB_BUILD },
    baseline: { side: 'fetch-with-timeout', nodeFlags: WEB_BUILD },
    target: 0.9,
    runs: 1,
  },
  {
    // Against the SDK's own work, not against telemetry off: that work is the floor of any instrumentation recording
    // the same, so the gap is paymount's. The two sides differ by a few per cent, which CPU time per call on a busy
    // machine spread over (0.87 to 1.11 in one run). Over four runs paymount's side counted within 0.6%, the SDK-work
    // side within 5% (288,200 to 302,900 a call): wider than the gap to the target, so three pairs, judged on their median.
    id: 'client-telemetry',
    what: `createCheckoutSession with telemetry on (OpenTelemetry SDK, batched spans and metrics, exporting nowhere) vs telemetry: false with the SDK's share done by hand around each call, in instructions per call (callgrind, ${COUNTED} calls counted after ${WARMUP_CALLS}, 20 in flight; the SDK work's over paymount's): what paymount adds to what the SDK itself costs`,
    paymount: { side: 'paymount-telemetry' },
    baseline: { side: 'paymount-sdk-work' },
    target: 0.95,
    runs: 3,
  },
];

/**
 * Figures whose sides differ by less than a busy machine's spread in time:
 * each side of subjects/call-loop.ts run under valgrind's callgrind against
 * the same stub, counted in instructions per call once warm (harness/callgrind.ts).
 */
export async function instructionFigures(): Promise<Figure[]> {
  return withScope(async (scope) => {
    const stub = await scope.start<{ url: string }>(subject('envelope-server'));
    const count = ({ side, nodeFlags = [] }: CountedSide) =>
      instructionsPerOp(subject('call-loop'), { nodeFlags, env: { SIDE: side, UPSTREAM: stub.ready.url }, warmup: WARMUP_CALLS, ops: COUNTED });
    const figures: Figure[] = [];
    for (const pair of COUNTED_PAIRS) {
      const paymount: number[] = [];
      const baseline: number[] = [];
      for (let run = 0; run < pair.runs; run++) {
        // Both sides at once, one core each (the stub's work is not counted).
        const [ours, theirs] = await Promise.all([count(pair.paymount), count(pair.baseline)]);
        paymount.push(ours);
        baseline.push(theirs);
      }
      figures.push(countedFigure(pair, paymount, baseline));
    }
    return figures;
  });
}

/** Each counted pair's baseline count over paymount's, their median judged: like calls/s, higher is better for paymount. */
export function countedFigure(
  { id, what, target }: Pick<CountedPair, 'id' | 'what' | 'target'>,
  paymount: readonly number[],
  baseline: readonly number[],
): Figure {
  return {
    id,
    what: paymount.length > 1 ? `${what}; the median of ${paymount.length} counted pairs` : what,
    ratio: spreadOf(paymount.map((ours, run) => baseline[run]! / ours)),
    target,
    higherIsBetter: true,
    absolute: { paymount: absoluteOf(paymount, 'instructions/call'), baseline: absoluteOf(baseline, 'instructions/call') },
  };
}
