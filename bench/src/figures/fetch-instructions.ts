import { instructionsPerOp, valgrindAvailable } from '../harness/callgrind';
import { round } from '../harness/stats';
import { absoluteOf, type Figure } from '../harness/results';
import { subject, withScope } from '../harness/scope';

/** Calls in the short and the long run of each side: their difference is what is counted. */
const FEW_CALLS = 500;
const MANY_CALLS = 2_500;

export async function valgrindMissing(): Promise<string | undefined> {
  return valgrindAvailable() ? undefined : 'valgrind is not on PATH, so client-fetch-instructions was not measured (apt-get install valgrind)';
}

/**
 * client-fetch-vs-timed-fetch counted in instructions: the same createCheckoutSession
 * through @paymount/core's web build and the same bare fetch given an abort signal,
 * each run whole under valgrind's callgrind. Calls/s of a fetch in Node spread
 * wider (0.80 to 1.0 in one run) than the gap to the target; counts repeat exactly.
 */
export async function fetchInstructionFigures(): Promise<Figure[]> {
  return withScope(async (scope) => {
    const stub = await scope.start<{ url: string }>(subject('envelope-server'));
    const count = (side: string) =>
      instructionsPerOp(subject('fetch-call-loop'), {
        nodeFlags: ['--conditions=worker'],
        env: { SIDE: side, UPSTREAM: stub.ready.url },
        few: FEW_CALLS,
        many: MANY_CALLS,
      });
    // One side at a time: each of its two runs takes a core.
    const paymount = await count('paymount-fetch');
    const timed = await count('fetch-with-timeout');
    return [fetchInstructionsFigure(paymount, timed)];
  });
}

export function fetchInstructionsFigure(paymount: number, timed: number): Figure {
  const ratio = round(timed / paymount);
  return {
    id: 'client-fetch-instructions',
    what: `createCheckoutSession through @paymount/core's web build (the fetch transport) vs a bare fetch() given signal: AbortSignal.timeout(), in instructions per call (callgrind, ${MANY_CALLS - FEW_CALLS} calls counted, 20 in flight, in Node; bare over paymount)`,
    ratio: { median: ratio, min: ratio, max: ratio },
    target: 0.9,
    higherIsBetter: true,
    absolute: { paymount: absoluteOf([paymount], 'instructions/call'), timed: absoluteOf([timed], 'instructions/call') },
  };
}
