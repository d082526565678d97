import { describe, expect, it } from 'vitest';
import { exitCodeOf, formatTable, missedFigures, type Figure } from './results';

function figure(id: string, median: number, target: number | null, higherIsBetter = true, absolute: Record<string, unknown> = {}): Figure {
  return { id, what: id, ratio: { median, min: median, max: median }, target, higherIsBetter, absolute };
}

const figures = [
  figure('fast-enough', 0.95, 0.9),
  figure('too-slow', 0.8, 0.9),
  figure('small-enough', 1.05, 1.1, false),
  figure('too-big', 1.2, 1.1, false),
  figure('stopped-short', 1.0, 1.1, false, { complete: false }),
  figure('cold-start', 3.2, null),
];

describe('the bench verdict', () => {
  it('lists the figures that missed their target, either direction, and one stopped short', () => {
    expect(missedFigures(figures).map((missed) => missed.id)).toEqual(['too-slow', 'too-big', 'stopped-short']);
  });

  it('prints every figure with its target and verdict', () => {
    const rows = formatTable(figures, []).split('\n').slice(2);
    expect(rows.map((row) => row.split(/\s+/).at(-1))).toEqual(['met', 'MISSED', 'met', 'MISSED', 'PARTIAL', 'reported']);
    expect(rows[1]).toMatch(/^too-slow\s+0\.800\s+0\.800\s+0\.800\s+>= 0\.9\s+MISSED$/);
    expect(rows[3]).toContain('<= 1.1');
  });

  it('exits 3 on a miss only under --check, 1 on a broken harness whatever the targets, else 0', () => {
    expect(exitCodeOf({ failures: 0, missed: 2, check: true })).toBe(3);
    expect(exitCodeOf({ failures: 0, missed: 2, check: false })).toBe(0);
    expect(exitCodeOf({ failures: 0, missed: 0, check: true })).toBe(0);
    expect(exitCodeOf({ failures: 1, missed: 0, check: true })).toBe(1);
    expect(exitCodeOf({ failures: 1, missed: 3, check: false })).toBe(1);
  });

  it('names broken figure groups under the table, then skipped ones with why', () => {
    expect(formatTable([], ['routes: boom'])).toMatch(/\nFAILED routes: boom$/);
    expect(formatTable(figures, ['routes: boom'], ['webhook-stores: no redis-server']).split('\n').slice(-2)).toEqual([
      'FAILED routes: boom',
      'SKIPPED webhook-stores: no redis-server',
    ]);
  });
});
