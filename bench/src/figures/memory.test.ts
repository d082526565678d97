import { describe, expect, it } from 'vitest';
import { formatTable, missedFigures } from '../harness/results';
import type { DedupeMemoryResult } from '../subjects/dedupe-memory';
import { memoryFiguresOf } from './memory';

const MIB = 2 ** 20;

function run(deliveries: number, peakRssMib: number, retainedMib: number): DedupeMemoryResult {
  return {
    deliveries,
    startRssBytes: 100 * MIB,
    peakRssBytes: peakRssMib * MIB,
    retainedHeapBytes: retainedMib * MIB,
    storeSize: 10_000,
    storeBound: 10_000,
    elapsedMs: 5_000,
  };
}

const baseline = [run(100_000, 150, 18), run(100_000, 150, 18)];

describe('the dedupe memory figures', () => {
  it('judge the heap kept after a full collection and only report the peak RSS', () => {
    const figures = memoryFiguresOf([run(1_000_000, 215, 17), run(1_000_000, 210, 17)], baseline);
    expect(figures.map(({ id, target }) => [id, target])).toEqual([
      ['dedupe-memory', 1.1],
      ['dedupe-peak-rss', null],
    ]);
    expect(figures[0]!.ratio.median).toBeCloseTo(17 / 18, 3);
    expect(figures[1]!.ratio.median).toBeCloseTo(212.5 / 150, 3);
    expect(missedFigures(figures)).toEqual([]);
  });

  it('miss when the store keeps what it should have dropped', () => {
    const figures = memoryFiguresOf([run(1_000_000, 215, 25), run(1_000_000, 215, 25)], baseline);
    expect(missedFigures(figures).map((figure) => figure.id)).toEqual(['dedupe-memory']);
  });

  it('count a run stopped short of its deliveries as missed, and mark both figures partial', () => {
    const figures = memoryFiguresOf([run(1_000_000, 215, 17), run(800_000, 200, 17)], baseline);
    expect(missedFigures(figures).map((figure) => figure.id)).toEqual(['dedupe-memory']);
    expect(formatTable(figures, []).split('\n').slice(2).map((row) => row.split(/\s+/).at(-1))).toEqual(['PARTIAL', 'PARTIAL']);
    expect(figures[0]!.what).toContain('800,000 distinct deliveries');
  });
});
