/** Anything that tells the time in epoch milliseconds. */
export interface TimeSource {
  now(): number;
}

/**
 * The sandbox's notion of "service time": session expiry, the ±10-minute
 * timestamp window, the duplicate request-id window, token expiry and webhook
 * timestamps all read it, so a test moves them together without waiting.
 */
export interface SandboxClock extends TimeSource {
  /** Moves service time by `ms` (negative moves it back). */
  advance(ms: number): void;
  /** Sets service time to the epoch milliseconds `ms`. */
  set(ms: number): void;
  /** Returns to the underlying time source (real time unless a clock was given). */
  reset(): void;
}

export function createSandboxClock(source: TimeSource = { now: () => Date.now() }): SandboxClock {
  let offset = 0;
  const finite = (ms: number, what: string) => {
    if (!Number.isFinite(ms)) throw new TypeError(`${what} must be a finite number of milliseconds`);
    return ms;
  };
  return {
    now: () => source.now() + offset,
    advance(ms) {
      offset += finite(ms, 'clock.advance(ms)');
    },
    set(ms) {
      offset = finite(ms, 'clock.set(ms)') - source.now();
    },
    reset() {
      offset = 0;
    },
  };
}
