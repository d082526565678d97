import type { ClosedLoopResult } from '../harness/closed-loop';
import { pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope } from '../harness/scope';
import type { BenchSettings } from '../harness/settings';
import type { ClientSide } from '../subjects/client-caller';

const SIDES: readonly ClientSide[] = ['paymount', 'undici', 'axios', 'paymount-telemetry', 'paymount-no-telemetry'];

/**
 * Figure 1: createCheckoutSession through @paymount/core against a local
 * node:http stub, side by side with a bare undici Pool.request and with a
 * hand-written axios client of the same call. Each side calls from its own
 * process; the stub answers from another. And the client with telemetry
 * on (the OpenTelemetry SDK, exporting nowhere) against the client with
 * `telemetry: false`.
 */
export async function clientFigures(settings: BenchSettings): Promise<Figure[]> {
  return withScope(async (scope) => {
    const stub = await scope.start<{ url: string }>(subject('envelope-server'));
    const callers = await Promise.all(
      SIDES.map((side) => scope.start(subject('client-caller'), { side, upstream: stub.ready.url, connections: settings.connections })),
    );
    const window = { warmupMs: settings.warmupMs, durationMs: settings.durationMs, maxOps: settings.maxOps };
    // One long warm-up each before the pairs, so the first pair does not measure the JIT.
    for (const caller of callers) {
      await caller.request({ ...window, warmupMs: 0, durationMs: 4 * settings.warmupMs }, 10 * settings.warmupMs + 15_000);
    }
    const runs = await pairedRuns(
      settings.runs,
      SIDES.map((side, index) => ({
        name: side,
        measure: async () => {
          const result = await callers[index]!.request<ClosedLoopResult>(window, settings.warmupMs + settings.durationMs + 15_000);
          if (result.ops === 0 || result.failures > 0) throw new Error(`the ${side} client failed ${result.failures} of ${result.ops} calls`);
          return result;
        },
      })),
    );
    const [paymount, undici, axios, withTelemetry, withoutTelemetry] = SIDES.map((side) => runs.get(side)!.map((result) => result.opsPerSecond));
    const absolute = {
      paymount: absoluteOf(paymount!, 'calls/s'),
      undici: absoluteOf(undici!, 'calls/s'),
      axios: absoluteOf(axios!, 'calls/s'),
      'paymount-telemetry': absoluteOf(withTelemetry!, 'calls/s'),
      'paymount-no-telemetry': absoluteOf(withoutTelemetry!, 'calls/s'),
      cpuPerCall: Object.fromEntries(
        SIDES.map((side) => [side, absoluteOf(runs.get(side)!.map((result) => result.cpuMicrosPerOp), 'CPU µs/call')]),
      ),
      inFlight: settings.connections,
    };
    return [
      {
        id: 'client-vs-undici',
        what: 'createCheckoutSession through @paymount/core vs a bare undici Pool.request of the same body (calls/s, 20 in flight)',
        ratio: ratiosOf(paymount!, undici!),
        target: 0.85,
        higherIsBetter: true,
        absolute,
      },
      {
        id: 'client-vs-axios',
        what: 'createCheckoutSession through @paymount/core vs a hand-written axios client doing the same call (calls/s)',
        ratio: ratiosOf(paymount!, axios!),
        target: 4,
        higherIsBetter: true,
        absolute,
      },
      {
        id: 'client-telemetry',
        what: 'createCheckoutSession with telemetry on (OpenTelemetry SDK, batched spans and metrics, exporting nowhere) vs telemetry: false (calls/s)',
        ratio: ratiosOf(withTelemetry!, withoutTelemetry!),
        target: 0.9,
        higherIsBetter: true,
        absolute,
      },
    ];
  });
}
