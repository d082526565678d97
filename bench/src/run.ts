import { fileURLToPath } from 'node:url';
import { clientFigures } from './figures/client';
import { routeCheckoutFigures } from './figures/routes';
import { webhookFigures } from './figures/webhooks';
import { walletFigures } from './figures/wallet';
import { redisServerMissing, webhookStoreFigures } from './figures/webhook-stores';
import { postgresServerMissing, postgresStoreFigures } from './figures/postgres-stores';
import { denoKvStoreFigures } from './figures/deno-kv-stores';
import { durableObjectStoreFigures } from './figures/durable-object-stores';
import { redisServerMissing as redisServerMissingForQueue, webhookQueueFigures } from './figures/webhook-queue';
import { sandboxFigures } from './figures/sandbox';
import { memoryFigures } from './figures/memory';
import { coldStartFigures } from './figures/cold-start';
import { webBuildFigures } from './figures/web-build';
import { bundleSizeFigures } from './figures/bundle-size';
import { instructionFigures, valgrindMissing } from './figures/instructions';
import { exitCodeOf, formatTable, missedFigures, writeResults, type Figure } from './harness/results';
import { benchSettings, type BenchSettings } from './harness/settings';

interface FigureGroup {
  name: string;
  run: (settings: BenchSettings) => Promise<Figure[]>;
  /** Why the group cannot run on this machine, checked before it starts; undefined when it can. */
  missing?: () => Promise<string | undefined>;
}

/** Every figure group, in the order they run. `npm run bench -- <name>…` runs some alone. */
const GROUPS: readonly FigureGroup[] = [
  { name: 'client', run: clientFigures },
  { name: 'routes', run: routeCheckoutFigures },
  { name: 'wallet', run: walletFigures },
  { name: 'webhooks', run: webhookFigures },
  { name: 'web-build', run: webBuildFigures },
  { name: 'instructions', run: instructionFigures, missing: valgrindMissing },
  { name: 'webhook-stores', run: webhookStoreFigures, missing: redisServerMissing },
  { name: 'postgres-stores', run: postgresStoreFigures, missing: postgresServerMissing },
  { name: 'deno-kv-stores', run: denoKvStoreFigures },
  { name: 'durable-object-stores', run: durableObjectStoreFigures },
  { name: 'webhook-queue', run: webhookQueueFigures, missing: redisServerMissingForQueue },
  { name: 'sandbox', run: sandboxFigures },
  { name: 'memory', run: memoryFigures },
  { name: 'cold-start', run: coldStartFigures },
  { name: 'bundle-size', run: bundleSizeFigures },
];

const RESULTS_DIR = new URL('../results/', import.meta.url);

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  // `--check`: a missed target fails the run, so a regression shows as a non-zero exit.
  const check = args.includes('--check');
  const wanted = args.filter((arg) => arg !== '--check');
  const unknown = wanted.filter((name) => !GROUPS.some((group) => group.name === name));
  if (unknown.length > 0) {
    console.error(`unknown figure group(s): ${unknown.join(', ')}; known: ${GROUPS.map((group) => group.name).join(', ')}`);
    return 2;
  }
  const groups = wanted.length === 0 ? GROUPS : GROUPS.filter((group) => wanted.includes(group.name));
  const settings = benchSettings();
  const figures: Figure[] = [];
  const failures: string[] = [];
  const skipped: string[] = [];
  const started = performance.now();
  for (const group of groups) {
    const groupStarted = performance.now();
    try {
      const missing = await group.missing?.();
      if (missing !== undefined) {
        skipped.push(`${group.name}: ${missing}`);
        console.error(`${group.name}: skipped: ${missing}`);
        continue;
      }
      figures.push(...(await group.run(settings)));
      console.error(`${group.name}: done in ${((performance.now() - groupStarted) / 1000).toFixed(1)} s`);
    } catch (error) {
      failures.push(`${group.name}: ${error instanceof Error ? error.message : String(error)}`);
      console.error(`${group.name}: failed`, error);
    }
  }
  // Only a full run replaces the committed results; a partial one is kept beside them.
  const file = new URL(wanted.length === 0 ? 'latest.json' : 'partial.json', RESULTS_DIR);
  await writeResults(fileURLToPath(file), { node: process.version, figures, skipped });
  console.log(formatTable(figures, failures, skipped));
  console.log(`\n${figures.length} figures in ${((performance.now() - started) / 1000).toFixed(1)} s; written to ${fileURLToPath(file)}`);
  const missed = missedFigures(figures);
  if (missed.length > 0) console.log(`missed: ${missed.map((figure) => figure.id).join(', ')}`);
  return exitCodeOf({ failures: failures.length, missed: missed.length, check });
}

process.exitCode = await main();
