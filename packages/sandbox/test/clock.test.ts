import { describe, expect, it } from 'vitest';
import { createSandboxClock } from '../src/clock';

describe('sandbox clock', () => {
  it('follows its source, moves by advance and set, and returns to the source on reset', () => {
    let source = 1_000;
    const clock = createSandboxClock({ now: () => source });
    expect(clock.now()).toBe(1_000);
    clock.advance(500);
    source = 2_000;
    expect(clock.now()).toBe(2_500);
    clock.set(10_000);
    expect(clock.now()).toBe(10_000);
    source = 3_000;
    expect(clock.now()).toBe(11_000);
    clock.reset();
    expect(clock.now()).toBe(3_000);
  });

  it('refuses a move that is not a finite number', () => {
    const clock = createSandboxClock({ now: () => 0 });
    expect(() => clock.advance(Number.NaN)).toThrow(/finite/);
    expect(() => clock.set(Number.POSITIVE_INFINITY)).toThrow(/finite/);
  });
});
