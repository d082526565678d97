import { afterAll } from 'vitest';

/**
 * A real Deno KV on a temporary file for this test file, closed and removed
 * after its tests. Every store (every "isolate") gets the one connection:
 * separate connections to one local SQLite file refuse a write while another
 * commits ("database is locked", measured: 2 of the contract tests failed
 * so), which Deno Deploy's KV does not do.
 */
export function localKv(): { open(): Promise<Deno.Kv>; openSeparate(): Promise<Deno.Kv> } {
  const opened: Deno.Kv[] = [];
  let folder: Promise<string> | undefined;
  let shared: Promise<Deno.Kv> | undefined;
  afterAll(async () => {
    for (const kv of opened) {
      try {
        kv.close();
      } catch {
        // A test closed it already, to see the stores fail.
      }
    }
    if (folder) await Deno.remove(await folder, { recursive: true });
  });
  const openSeparate = async () => {
    folder ??= Deno.makeTempDir();
    const kv = await Deno.openKv(`${await folder}/kv.sqlite3`);
    opened.push(kv);
    return kv;
  };
  return { open: () => (shared ??= openSeparate()), openSeparate };
}

/** A clock the test moves; shared by every store made with it. */
export function drivenClock(): { now(): number; elapse(ms: number): void } {
  let at = Date.now();
  return {
    now: () => at,
    elapse: (ms) => void (at += ms),
  };
}
