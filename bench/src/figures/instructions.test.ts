import { describe, expect, it } from 'vitest';
import { meetsTarget } from '../harness/results';
import { COUNTED_PAIRS, countedFigure } from './instructions';

const pair = (id: string) => COUNTED_PAIRS.find((counted) => counted.id === id)!;

describe('the counted figures', () => {
  it("hold paymount's fetch transport to 0.9 of the bare timed call: the bare count over paymount's", () => {
    const met = countedFigure(pair('client-fetch-instructions'), [2_000_000], [1_800_000]);
    expect([met.ratio, met.target, meetsTarget(met)]).toEqual([{ median: 0.9, min: 0.9, max: 0.9 }, 0.9, true]);
    expect(meetsTarget(countedFigure(pair('client-fetch-instructions'), [2_000_000], [1_798_000]))).toBe(false);
    expect(met.absolute).toEqual({
      paymount: { median: 2_000_000, min: 2_000_000, max: 2_000_000, unit: 'instructions/call' },
      baseline: { median: 1_800_000, min: 1_800_000, max: 1_800_000, unit: 'instructions/call' },
    });
  });

  it("hold telemetry on to 0.95 of the SDK's own work done by hand around a client with telemetry off", () => {
    const telemetry = pair('client-telemetry');
    expect([telemetry.paymount.side, telemetry.baseline.side, telemetry.target]).toEqual(['paymount-telemetry', 'paymount-sdk-work', 0.95]);
    expect(meetsTarget(countedFigure(telemetry, [1_000_000], [960_000]))).toBe(true);
    expect(meetsTarget(countedFigure(telemetry, [1_000_000], [940_000]))).toBe(false);
  });

  it('judge a figure of several counted pairs on the median of their ratios, each pair its own runs', () => {
    const telemetry = pair('client-telemetry');
    expect(telemetry.runs).toBe(3);
    const figure = countedFigure(telemetry, [1_000_000, 1_000_000, 1_100_000], [1_050_000, 940_000, 1_045_000]);
    expect(figure.ratio).toEqual({ median: 0.95, min: 0.94, max: 1.05 });
    expect(meetsTarget(figure)).toBe(true);
    expect(figure.what).toContain('the median of 3 counted pairs');
  });
});
