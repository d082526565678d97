import type { ClosedLoopResult, TimedLoopResult } from '../harness/closed-loop';
import { cpuPairsFor, cpuRatiosOf, pairedRuns } from '../harness/paired';
import { pairedCallerRuns } from '../harness/paired-callers';
import { absoluteOf, type Figure } from '../harness/results';
import { absoluteOfSides, cpuPerCall } from './client';
import { subject, withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import type { WebBuildSide } from '../subjects/web-build';

/** How Node is told to load @paymount/core's web build: the exports map sends `worker` to dist/web. */
const WEB_BUILD_FLAGS = ['--conditions=worker'];
/** CPU-only loops need less time than servers to settle (as webhooks.ts). */
const MICRO_DURATION_MS = 500;
/**
 * The fetch sides' pairs, whatever BENCH_RUNS says, in sets of fresh
 * processes: on the quiet machine two runs of 20 pairs in one set of processes
 * put paymount's side 25 and 46 µs a call over the timed bare call, each
 * process keeping its own layout and compiled code, while pairs within a run
 * spread from 0.82 to 0.98.
 */
const FETCH_CPU_PAIRS = 20;
const FETCH_PROCESS_SETS = 4;
const CLIENT_SIDES: readonly WebBuildSide[] = ['fetch-transport', 'paymount-fetch', 'fetch', 'fetch-with-timeout'];

/** Every client side's closed-loop runs, gathered over FETCH_PROCESS_SETS sets of fresh caller processes. */
async function measureFetchSides(settings: BenchSettings, upstream: string): Promise<ClientRuns> {
  const runs = new Map<string, ClosedLoopResult[]>(CLIENT_SIDES.map((side) => [side, []]));
  const pairsPerSet = Math.ceil(Math.max(settings.runs, FETCH_CPU_PAIRS) / FETCH_PROCESS_SETS);
  for (let set = 0; set < FETCH_PROCESS_SETS; set++) {
    await withScope(async (scope) => {
      const callers = await Promise.all(
        CLIENT_SIDES.map((side) => scope.start(subject('web-build'), { side, upstream, connections: settings.connections }, WEB_BUILD_FLAGS)),
      );
      const setRuns = await pairedCallerRuns(callers, CLIENT_SIDES, settings, pairsPerSet);
      for (const [side, results] of setRuns) runs.get(side)!.push(...results);
    });
  }
  return runs;
}

/**
 * The web build's two platform pieces, measured in Node against what a
 * merchant would write with the same Web APIs: createCheckoutSession through
 * the fetch transport vs a bare fetch() of the same call, and verifyWebhook
 * on Web Crypto vs a bare crypto.subtle.verify + JSON.parse.
 */
export async function webBuildFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const stub = await scope.start<{ url: string }>(subject('envelope-server'));
    const clientRuns = await measureFetchSides(settings, stub.ready.url);

    const verifySides: readonly WebBuildSide[] = ['paymount-web-verify', 'bare-web-verify'];
    const verifiers = await Promise.all(verifySides.map((side) => scope.start<{ bytes: number }>(subject('web-build'), { side }, WEB_BUILD_FLAGS)));
    const measure = (index: number) => verifiers[index]!.request<TimedLoopResult>({ durationMs: MICRO_DURATION_MS, maxOps: 5_000_000 }, MICRO_DURATION_MS + 10_000);
    for (const index of verifySides.keys()) await measure(index);
    const verifyRuns = await pairedRuns(
      cpuPairsFor(settings.runs),
      verifySides.map((side, index) => ({ name: side, measure: async () => (await measure(index)).cpuMicrosPerOp })),
    );

    return webBuildFiguresOf(
      clientRuns,
      { paymount: verifyRuns.get('paymount-web-verify')!, bare: verifyRuns.get('bare-web-verify')! },
      verifiers[0]!.ready.bytes,
      settings.connections,
    );
  });
}

type Pair = Readonly<{ paymount: readonly number[]; bare: readonly number[] }>;
/**
 * The client's runs by side: `fetch-transport` (the bare calls' request sent
 * through paymount's fetch transport alone), `paymount-fetch` (the whole
 * client), `fetch` (a bare fetch() with no time limit) and `fetch-with-timeout`
 * (the same given the cheapest one: an AbortController aborted by a timer it
 * clears once the answer is read).
 */
type ClientRuns = ReadonlyMap<string, readonly ClosedLoopResult[]>;

/** The runs of some sides, named as a figure's `absolute` shows them. */
function sidesOf(runs: ClientRuns, names: Record<string, WebBuildSide>): ClientRuns {
  return new Map(Object.entries(names).map(([name, side]) => [name, runs.get(side)!]));
}

/**
 * The figures and their targets, from the runs each side made, in the CPU the
 * caller's process spent per call (baseline over subject, so higher is better),
 * which a busy machine moves far less than calls/s. A fetch that can time out
 * costs the runtime's fetch more than one that cannot: an AbortController per
 * call, and undici's Request follows its signal. paymount's per-attempt time
 * limit needs one, so `fetch-timeout-cost` measures that part alone, outside
 * paymount: it is the ceiling of every figure against the untimed fetch. What
 * the transport itself adds is `fetch-transport-vs-timed-fetch`, held to 0.9.
 * The whole client (validation both ways, ids, retries) is reported against
 * both bare calls, and held to 0.9 of the timed one in instructions
 * (client-fetch-instructions), which repeat where its CPU per call spreads.
 */
export function webBuildFiguresOf(client: ClientRuns, verify: Pair, bytes: number, connections: number): Figure[] {
  const pairs = client.get('paymount-fetch')!.length;
  const cpu = (side: WebBuildSide) => cpuPerCall(client, side);
  const measured = `in the caller's CPU per call (${pairs} pairs, ${connections} in flight, in Node)`;
  return [
    {
      id: 'fetch-transport-vs-fetch',
      what: `a create-session request sent through @paymount/core's fetch transport (createFetchTransport: a per-attempt AbortController and timer, redirect: 'manual', the size-capped body) vs a bare fetch() of the same request, envelope parsed and checked alike, ${measured}; reported: the bare call cannot time out, and a time limit alone costs it fetch-timeout-cost`,
      ratio: cpuRatiosOf(cpu('fetch-transport'), cpu('fetch')),
      target: null,
      higherIsBetter: true,
      absolute: absoluteOfSides(sidesOf(client, { transport: 'fetch-transport', bare: 'fetch' }), connections),
    },
    {
      id: 'fetch-transport-vs-timed-fetch',
      what: `the same request through the fetch transport vs the bare fetch() with the cheapest time limit, an AbortController aborted by a setTimeout cleared once the answer is read, ${measured}: what the transport adds over a bare call that can time out`,
      ratio: cpuRatiosOf(cpu('fetch-transport'), cpu('fetch-with-timeout')),
      target: 0.9,
      higherIsBetter: true,
      absolute: absoluteOfSides(sidesOf(client, { transport: 'fetch-transport', timed: 'fetch-with-timeout' }), connections),
    },
    {
      id: 'fetch-timeout-cost',
      what: `the bare fetch() with that time limit vs the same without one, ${measured}: what a fetch that can time out costs the runtime, outside paymount; no figure against the untimed fetch can pass it`,
      ratio: cpuRatiosOf(cpu('fetch-with-timeout'), cpu('fetch')),
      target: null,
      higherIsBetter: true,
      absolute: absoluteOfSides(sidesOf(client, { timed: 'fetch-with-timeout', bare: 'fetch' }), connections),
    },
    {
      id: 'client-fetch-vs-fetch',
      what: `createCheckoutSession through @paymount/core's web build (the whole client on the fetch transport: the request validated, ids made, the envelope and session checked) vs the bare fetch(), ${measured}; reported`,
      ratio: cpuRatiosOf(cpu('paymount-fetch'), cpu('fetch')),
      target: null,
      higherIsBetter: true,
      absolute: absoluteOfSides(sidesOf(client, { paymount: 'paymount-fetch', bare: 'fetch' }), connections),
    },
    {
      id: 'client-fetch-vs-timed-fetch',
      what: `the same createCheckoutSession vs the bare timed fetch(), ${measured}; reported: held to 0.9 in instructions by client-fetch-instructions`,
      ratio: cpuRatiosOf(cpu('paymount-fetch'), cpu('fetch-with-timeout')),
      target: null,
      higherIsBetter: true,
      absolute: absoluteOfSides(sidesOf(client, { paymount: 'paymount-fetch', timed: 'fetch-with-timeout' }), connections),
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
