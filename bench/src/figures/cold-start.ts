import { timeRequire } from '../harness/fresh-node';
import { pairedRuns, ratiosOf } from '../harness/paired';
import { absoluteOf, type Figure } from '../harness/results';
import type { BenchSettings } from '../harness/settings';

/**
 * Each package against what it loads anyway: its own runtime dependencies.
 * The ratio is what the package's own code adds to start-up on top of them.
 */
const PACKAGES: ReadonlyArray<{ name: string; dependencies: readonly string[] }> = [
  { name: '@paymount/core', dependencies: ['zod', 'undici'] },
  { name: '@paymount/express', dependencies: ['@paymount/core'] },
  { name: '@paymount/koa', dependencies: ['@paymount/core'] },
  { name: '@paymount/nestjs', dependencies: ['@paymount/core', '@nestjs/common', '@nestjs/core'] },
  { name: '@paymount/sandbox', dependencies: ['zod', 'selfsigned'] },
  { name: '@paymount/redis', dependencies: ['@paymount/core', 'ioredis'] },
];

/**
 * Figure 6: time to require() each built package (CJS) in fresh processes,
 * reported beside the time to require its dependencies alone.
 */
export async function coldStartFigures(settings: BenchSettings): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const { name, dependencies } of PACKAGES) {
    const runs = await pairedRuns(settings.runs, [
      { name: 'package', measure: () => timeRequire([name]) },
      { name: 'dependencies', measure: () => timeRequire(dependencies) },
    ]);
    figures.push({
      id: `cold-start-${name.split('/')[1]}`,
      what: `require('${name}') in a fresh process vs require of ${dependencies.join(' + ')} alone (ms)`,
      ratio: ratiosOf(runs.get('package')!, runs.get('dependencies')!),
      target: null,
      higherIsBetter: false,
      absolute: { package: absoluteOf(runs.get('package')!, 'ms'), dependencies: absoluteOf(runs.get('dependencies')!, 'ms') },
    });
  }
  return figures;
}
