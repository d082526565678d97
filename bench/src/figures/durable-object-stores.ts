import { fileURLToPath } from 'node:url';
import { serveWorker } from '../../../tools/workerd';
import { pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import type { BenchSettings } from '../harness/settings';

const CYCLES_WORKER = fileURLToPath(new URL('../subjects/durable-object-cycles.ts', import.meta.url));

/**
 * durable-object-stores: a paid order's store traffic and its event's through
 * @paymount/cloudflare's Durable Object stores vs the same RPCs to the same
 * objects doing bare storage reads and writes, both run inside one Worker in
 * workerd (subjects/durable-object-cycles.ts) with settings.connections
 * cycles in flight; each side's cycles/s is its count over the request's
 * time as Node measures it.
 */
export async function durableObjectStoreFigures(settings: BenchSettings): Promise<Figure[]> {
  const worker = await serveWorker(
    { file: CYCLES_WORKER },
    { durableObjects: { PAYMOUNT_STATE: { className: 'PaymountState', useSQLite: true } }, external: ['cloudflare:workers'] },
  );
  try {
    const cyclesFor = async (side: 'paymount' | 'bare', durationMs: number) => {
      const started = performance.now();
      const answer = await fetch(new URL(`/?side=${side}&inFlight=${settings.connections}&durationMs=${durationMs}`, worker.url));
      if (!answer.ok) throw new Error(`the durable-object-stores Worker answered ${answer.status}: ${await answer.text()}`);
      const { cycles } = (await answer.json()) as { cycles: number };
      return cycles / ((performance.now() - started) / 1000);
    };
    const measure = (side: 'paymount' | 'bare') => async () => {
      await cyclesFor(side, settings.warmupMs);
      return cyclesFor(side, settings.durationMs);
    };
    const runs = await pairedRuns(settings.runs, [
      { name: 'paymount', measure: measure('paymount') },
      { name: 'bare', measure: measure('bare') },
    ]);
    const [paymount, bare] = [runs.get('paymount')!, runs.get('bare')!];
    return [
      {
        id: 'durable-object-stores',
        what: `a paid order's store traffic (lock, get, put ×2, settle, unlock, their unsettled-index copies; claim, mark handled) through @paymount/cloudflare's Durable Object stores vs the same 11 RPCs to the same objects doing bare storage gets and puts, inside one Worker in workerd, ${settings.connections} cycles in flight`,
        ratio: ratiosOf(paymount, bare),
        target: 0.8,
        higherIsBetter: true,
        absolute: { paymount: absoluteOf(paymount, 'cycles/s'), bare: absoluteOf(bare, 'cycles/s') },
      },
    ];
  } finally {
    await worker.dispose();
  }
}
