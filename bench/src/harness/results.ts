import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { spreadOf, type Spread } from './stats';

export interface Figure {
  id: string;
  what: string;
  ratio: Spread;
  /** Null for a figure that is reported, not held to a target. */
  target: number | null;
  higherIsBetter: boolean;
  absolute: Record<string, unknown>;
}

export interface Results {
  node: string;
  figures: Figure[];
  /** Groups not run for want of a tool on this machine, each with why. */
  skipped: string[];
}

export function meetsTarget(figure: Figure): boolean | undefined {
  if (figure.target === null) return undefined;
  return figure.higherIsBetter ? figure.ratio.median >= figure.target : figure.ratio.median <= figure.target;
}

/** Figures held to a target they did not meet; a partial one (stopped short) counts as missed too. */
export function missedFigures(figures: readonly Figure[]): Figure[] {
  return figures.filter((figure) => meetsTarget(figure) === false || (figure.target !== null && figure.absolute['complete'] === false));
}

/**
 * The run's exit code: 1 when the harness broke (a figure could not be
 * measured), 3 when `--check` was given and a target was missed, else 0: a
 * miss without `--check` is a finding, not a failure.
 */
export function exitCodeOf({ failures, missed, check }: { failures: number; missed: number; check: boolean }): number {
  if (failures > 0) return 1;
  return check && missed > 0 ? 3 : 0;
}

export async function writeResults(path: string, results: Results): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}

/**
 * The table printed after a run: one line per figure, ratio spread against its
 * target; under it the groups that broke and those skipped for want of a tool.
 */
export function formatTable(figures: readonly Figure[], failures: readonly string[], skipped: readonly string[] = []): string {
  const header = ['figure', 'median', 'min', 'max', 'target', 'verdict'];
  const rows = figures.map((figure) => {
    const met = meetsTarget(figure);
    const target = figure.target === null ? 'report' : `${figure.higherIsBetter ? '>=' : '<='} ${figure.target}`;
    return [
      figure.id,
      figure.ratio.median.toFixed(3),
      figure.ratio.min.toFixed(3),
      figure.ratio.max.toFixed(3),
      target,
      figure.absolute['complete'] === false ? 'PARTIAL' : met === undefined ? 'reported' : met ? 'met' : 'MISSED',
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd();
  const lines = [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)];
  for (const failure of failures) lines.push(`FAILED ${failure}`);
  for (const reason of skipped) lines.push(`SKIPPED ${reason}`);
  return lines.join('\n');
}

/** Absolute figures of one side, for the JSON: what a ratio was computed from. */
export function absoluteOf(values: readonly number[], unit: string): Spread & { unit: string } {
  return { ...spreadOf(values, 1), unit };
}
