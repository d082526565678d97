import { cpuRatiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';

/** One side's measure of a store cycle in one pair. */
export interface CycleRun {
  cyclesPerSecond: number;
  cpuMicrosPerCycle: number;
}

/**
 * A stores-vs-bare figure: judged on CPU time per cycle, the bare side's over
 * the stores', pair by pair (target 0.8); both sides' cycles/s beside it.
 */
export function storesFigure(id: string, what: string, paymount: readonly CycleRun[], bare: readonly CycleRun[]): Figure {
  const cpu = (side: readonly CycleRun[]) => side.map((run) => run.cpuMicrosPerCycle);
  const throughput = (side: readonly CycleRun[]) => side.map((run) => run.cyclesPerSecond);
  return {
    id,
    what: `${what}: CPU time per cycle, the bare side's over the stores'`,
    ratio: cpuRatiosOf(cpu(paymount), cpu(bare)),
    target: 0.8,
    higherIsBetter: true,
    absolute: {
      paymount: absoluteOf(throughput(paymount), 'cycles/s'),
      bare: absoluteOf(throughput(bare), 'cycles/s'),
      cpuPerCycle: { paymount: absoluteOf(cpu(paymount), 'CPU µs/cycle'), bare: absoluteOf(cpu(bare), 'CPU µs/cycle') },
    },
  };
}
