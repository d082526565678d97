import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { remoteStores } from './support/remote-stores';
import type { ObjectLook } from './support/store-worker';
import type { RunningWorker } from '../../../tools/workerd';
import { startStoresWorker } from './support/workerd';

let worker: RunningWorker | undefined;
beforeAll(async () => {
  worker = await startStoresWorker('support/store-worker.ts');
});
afterAll(() => worker?.dispose());

const stored = async (name: string) => {
  const answer = await fetch(new URL('/object', worker!.url), { method: 'POST', body: JSON.stringify({ name } satisfies ObjectLook) });
  return (await answer.json()) as { rows: number; alarm: number | null };
};

/** Polls until `check` holds, up to a limit that only a hung alarm reaches (a busy machine delays it, never by this much). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, limitMs = 60_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > end) return value;
    await sleep(100);
  }
}

/** Long enough that the first look comes before the alarm on a loaded machine (at 200 ms the alarm had already run). */
const TTL_MS = 10_000;

it("an object's alarm deletes its expired claim and lock, leaving the object with no rows and no alarm", async () => {
  const { orders, idempotency } = remoteStores(worker!.url);
  const key = `expiry-${process.pid}`;
  expect(await idempotency.claim(key, TTL_MS)).toBe(true);
  expect(await orders.lock(key, TTL_MS)).toEqual(expect.any(String));
  for (const name of [`event:${key}`, `order:${key}`]) {
    const kept = await stored(name);
    expect(kept.rows).toBe(1);
    expect(kept.alarm).toEqual(expect.any(Number));
  }
  for (const name of [`event:${key}`, `order:${key}`]) {
    expect(await eventually(() => stored(name), (s) => s.rows === 0 && s.alarm === null)).toEqual({ rows: 0, alarm: null });
  }
}, 120_000);
