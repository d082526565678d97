// What both store contract suites need from their runtime, written for every runtime the stores run in (Node, Deno,
// workerd without nodejs_compat): the web's timer and Web Crypto, no `node:` module.

/** Waits `ms` on the web's timer. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Fresh keys, `contract-<run>-<n>`, of a run of their own in a store that outlives it or is shared with another
 * test process (Redis, PostgreSQL). The run is drawn at the first key, since workerd draws no random value while
 * it loads a module.
 */
export function freshKeys(): () => string {
  let run: string | undefined;
  let keys = 0;
  return () => `contract-${(run ??= crypto.randomUUID())}-${++keys}`;
}
