import { describe, expect, it } from 'vitest';
import { isoTime } from '../src/iso-time';

describe('isoTime', () => {
  it('writes every time as Date does, whether it repeats, moves on or goes back', () => {
    const times = [0, 0, 1, 1_700_000_000_123, 1_700_000_000_123, 1_700_000_000_124, 1, -1, 253_402_300_799_999];
    for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('refuses a time Date cannot write, and still writes the last good one afterwards', () => {
    expect(isoTime(5)).toBe('1970-01-01T00:00:00.005Z');
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
    expect(isoTime(5)).toBe('1970-01-01T00:00:00.005Z');
  });
});
