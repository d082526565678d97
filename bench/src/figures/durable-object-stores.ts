import { fileURLToPath } from 'node:url';
import { serveWorker } from '../../../tools/workerd';
import { cpuPairsFor, pairedRuns } from '../harness/paired';
import { descendantsNamed, processCpuMicros } from '../harness/process-cpu';
import type { Figure } from '../harness/results';
import type { BenchSettings } from '../harness/settings';
import { storesFigure, type CycleRun } from './stores-figure';

const CYCLES_WORKER = fileURLToPath(new URL('../subjects/durable-object-cycles.ts', import.meta.url));

/**
 * durable-object-stores: a paid order's store traffic and its event's through
 * @paymount/cloudflare's Durable Object stores vs the same RPCs to the same
 * objects doing bare storage reads and writes, both run inside one Worker in
 * workerd (subjects/durable-object-cycles.ts) with settings.connections
 * cycles in flight. Judged on workerd's CPU time per cycle, the Worker's and
 * the objects' alike, since all of a cycle's work is done in that one
 * process: on this shared machine cycles/s spread wider than the gap to the
 * target (0.301-0.939 over 5 pairs).
 */
export async function durableObjectStoreFigures(settings: BenchSettings): Promise<Figure[]> {
  const before = new Set(descendantsNamed('workerd'));
  const worker = await serveWorker(
    { file: CYCLES_WORKER },
    { durableObjects: { PAYMOUNT_STATE: { className: 'PaymountState', useSQLite: true } }, external: ['cloudflare:workers'] },
  );
  try {
    const started = descendantsNamed('workerd').filter((pid) => !before.has(pid));
    if (started.length !== 1) throw new Error(`expected the one workerd process Miniflare started, found ${started.length}`);
    const workerd = started[0]!;
    const cyclesFor = async (side: 'paymount' | 'bare', durationMs: number): Promise<CycleRun> => {
      const [cpuBefore, timeBefore] = [processCpuMicros(workerd), performance.now()];
      const answer = await fetch(new URL(`/?side=${side}&inFlight=${settings.connections}&durationMs=${durationMs}`, worker.url));
      if (!answer.ok) throw new Error(`the durable-object-stores Worker answered ${answer.status}: ${await answer.text()}`);
      const { cycles } = (await answer.json()) as { cycles: number };
      const [cpu, seconds] = [processCpuMicros(workerd) - cpuBefore, (performance.now() - timeBefore) / 1000];
      return { cyclesPerSecond: cycles / seconds, cpuMicrosPerCycle: cpu / cycles };
    };
    const measure = (side: 'paymount' | 'bare') => async () => {
      await cyclesFor(side, settings.warmupMs);
      return cyclesFor(side, settings.durationMs);
    };
    const runs = await pairedRuns(cpuPairsFor(settings.runs), [
      { name: 'paymount', measure: measure('paymount') },
      { name: 'bare', measure: measure('bare') },
    ]);
    return [
      storesFigure(
        'durable-object-stores',
        `a paid order's store traffic (lock, get, put ×2, settle, unlock, their unsettled-index copies; claim, mark handled) through @paymount/cloudflare's Durable Object stores vs the same 11 RPCs to the same objects doing bare storage gets and puts, inside one Worker in workerd (its CPU), ${settings.connections} cycles in flight`,
        runs.get('paymount')!,
        runs.get('bare')!,
      ),
    ];
  } finally {
    await worker.dispose();
  }
}
