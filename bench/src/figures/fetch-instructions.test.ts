import { describe, expect, it } from 'vitest';
import { meetsTarget } from '../harness/results';
import { fetchInstructionsFigure } from './fetch-instructions';

describe('client-fetch-instructions', () => {
  it('holds paymount to 0.9 of the bare timed call: the bare count over paymount\'s', () => {
    const met = fetchInstructionsFigure(2_000_000, 1_800_000);
    expect([met.ratio, met.target, meetsTarget(met)]).toEqual([{ median: 0.9, min: 0.9, max: 0.9 }, 0.9, true]);
    expect(meetsTarget(fetchInstructionsFigure(2_000_000, 1_798_000))).toBe(false);
    expect(met.absolute).toEqual({
      paymount: { median: 2_000_000, min: 2_000_000, max: 2_000_000, unit: 'instructions/call' },
      timed: { median: 1_800_000, min: 1_800_000, max: 1_800_000, unit: 'instructions/call' },
    });
  });
});
