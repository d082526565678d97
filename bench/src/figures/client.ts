import type { ClosedLoopResult } from '../harness/closed-loop';
import { cpuPairsFor, cpuRatiosOf, ratiosOf } from '../harness/paired';
import { pairedCallerRuns } from '../harness/paired-callers';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope, type ProcessScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import type { ClientSide } from '../subjects/client-calls';

// client-telemetry-cpu's two sides measured one right after the other, so drift between them is least.
const SESSION_SIDES: readonly ClientSide[] = ['paymount', 'undici', 'axios', 'paymount-no-telemetry', 'paymount-telemetry', 'paymount-sdk-work', 'paymount-telemetry-sampled'];
const LIFECYCLE_SIDES: readonly ClientSide[] = ['paymount-refund', 'undici-refund', 'paymount-query', 'undici-query'];

export type SideRuns = Map<ClientSide, ClosedLoopResult[]>;

/**
 * Starts one caller process per side against the stub, warms each up, and
 * measures them in paired runs. The sides of one call are measured in the
 * same runs, so each of its ratios is taken within a run.
 */
async function measureSides(scope: ProcessScope, settings: BenchSettings, upstream: string, sides: readonly ClientSide[], runCount: number): Promise<SideRuns> {
  const callers = await Promise.all(sides.map((side) => scope.start(subject('client-caller'), { side, upstream, connections: settings.connections })));
  return pairedCallerRuns(callers, sides, settings, runCount);
}

/** calls/s of every side, and the CPU the caller process spent per call (µs), which load disturbs far less. */
export function absoluteOfSides(runs: ReadonlyMap<string, readonly ClosedLoopResult[]>, connections: number): Record<string, unknown> {
  const sides = [...runs.keys()];
  return {
    ...Object.fromEntries(sides.map((side) => [side, absoluteOf(callsPerSecond(runs, side), 'calls/s')])),
    cpuPerCall: Object.fromEntries(sides.map((side) => [side, absoluteOf(cpuPerCall(runs, side), 'CPU µs/call')])),
    inFlight: connections,
  };
}

function callsPerSecond(runs: ReadonlyMap<string, readonly ClosedLoopResult[]>, side: string): number[] {
  return runs.get(side)!.map((result) => result.opsPerSecond);
}

export function cpuPerCall(runs: ReadonlyMap<string, readonly ClosedLoopResult[]>, side: string): number[] {
  return runs.get(side)!.map((result) => result.cpuMicrosPerOp);
}

/**
 * Figure 1: createCheckoutSession through @paymount/core against a local
 * node:http stub, side by side with a bare undici Pool.request and with a
 * hand-written axios client of the same call. Each side calls from its own
 * process; the stub answers from another. And the client with telemetry
 * on (the OpenTelemetry SDK, exporting nowhere) against the same SDK work
 * done by hand around a client with `telemetry: false`. Then a refund and a
 * transaction query through the client, each against the same call on bare undici.
 */
export async function clientFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const stub = await scope.start<{ url: string }>(subject('envelope-server'));
    // client-telemetry-cpu compares CPU per call, so its sides run as many pairs as every CPU-time figure.
    const session = await measureSides(scope, settings, stub.ready.url, SESSION_SIDES, cpuPairsFor(settings.runs));
    const lifecycle = await measureSides(scope, settings, stub.ready.url, LIFECYCLE_SIDES, settings.runs);
    return clientFiguresOf(session, lifecycle, settings.connections);
  });
}

/** The client figures and their targets, from what each side reached in the same runs. */
export function clientFiguresOf(session: SideRuns, lifecycle: SideRuns, connections: number): Figure[] {
  const absolute = absoluteOfSides(session, connections);
  const lifecycleAbsolute = absoluteOfSides(lifecycle, connections);
  const ratio = (runs: SideRuns, side: ClientSide, baseline: ClientSide) => ratiosOf(callsPerSecond(runs, side), callsPerSecond(runs, baseline));
  return [
    {
      id: 'client-vs-undici',
      what: 'createCheckoutSession through @paymount/core vs a bare undici Pool.request of the same body (calls/s, 20 in flight)',
      ratio: ratio(session, 'paymount', 'undici'),
      target: 0.85,
      higherIsBetter: true,
      absolute,
    },
    {
      id: 'client-vs-axios',
      what: 'createCheckoutSession through @paymount/core vs a hand-written axios client doing the same call (calls/s)',
      ratio: ratio(session, 'paymount', 'axios'),
      target: 4,
      higherIsBetter: true,
      absolute,
    },
    {
      // client-telemetry itself is counted in instructions (figures/instructions.ts): this is the same pair in CPU time.
      id: 'client-telemetry-cpu',
      what: "createCheckoutSession with telemetry on vs telemetry: false with the SDK's share done by hand around each call (the caller's CPU per call, the SDK work's over paymount's): client-telemetry in time, as spread as a busy machine makes it",
      ratio: cpuRatiosOf(cpuPerCall(session, 'paymount-telemetry'), cpuPerCall(session, 'paymount-sdk-work')),
      target: null,
      higherIsBetter: true,
      absolute,
    },
    {
      id: 'client-telemetry-sdk-work',
      what: "telemetry: false with the SDK's share of telemetry done by hand around each call (its two spans, their attributes, one histogram point) vs telemetry: false (calls/s): what the SDK itself costs, the baseline of client-telemetry",
      ratio: ratio(session, 'paymount-sdk-work', 'paymount-no-telemetry'),
      target: null,
      higherIsBetter: true,
      absolute,
    },
    {
      id: 'client-telemetry-sampled',
      what: 'createCheckoutSession with telemetry on and one call in ten traced (ParentBasedSampler over TraceIdRatioBasedSampler 0.1; every call in the metrics) vs telemetry: false (calls/s)',
      ratio: ratio(session, 'paymount-telemetry-sampled', 'paymount-no-telemetry'),
      target: null,
      higherIsBetter: true,
      absolute,
    },
    {
      id: 'client-refund-vs-undici',
      what: 'a partial refund through @paymount/core vs a bare undici Pool.request of the same body (calls/s, 20 in flight)',
      ratio: ratio(lifecycle, 'paymount-refund', 'undici-refund'),
      target: 0.85,
      higherIsBetter: true,
      absolute: lifecycleAbsolute,
    },
    {
      id: 'client-query-vs-undici',
      what: 'getTransaction through @paymount/core vs a bare undici GET of the same query (calls/s, 20 in flight)',
      ratio: ratio(lifecycle, 'paymount-query', 'undici-query'),
      target: 0.85,
      higherIsBetter: true,
      absolute: lifecycleAbsolute,
    },
  ];
}
