import { afterAll } from 'vitest';

/**
 * A real Deno KV on a temporary file for this test file: every open() is its
 * own connection to the same data, as isolates sharing one KV have; all are
 * closed and the file removed after the file's tests.
 */
export function localKv(): { open(): Promise<Deno.Kv> } {
  const opened: Deno.Kv[] = [];
  let folder: Promise<string> | undefined;
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
  return {
    async open() {
      folder ??= Deno.makeTempDir();
      const kv = await Deno.openKv(`${await folder}/kv.sqlite3`);
      opened.push(kv);
      return kv;
    },
  };
}

/** A clock the test moves; shared by every store made with it. */
export function drivenClock(): { now(): number; elapse(ms: number): void } {
  let at = Date.now();
  return {
    now: () => at,
    elapse: (ms) => void (at += ms),
  };
}
