/* global Deno */
// `deno run --unstable-kv --allow-read=<dir> --allow-write=<dir> deno-kv-cycles.mjs '<settings JSON>'`: the
// deno-kv-stores figure's two sides, measured in one Deno process on one local KV (bench/src/figures/deno-kv-stores.ts
// starts it). A cycle is a paid order's store traffic, then its event's: through @paymount/deno-kv's stores, and the
// same reads and checked commits written as bare Deno.Kv calls. Prints one JSON line: each side's cycles/s and CPU
// time per cycle (this process's, KV's SQLite threads included) per pair.
import process from 'node:process';
import { denoKvStores } from '@paymount/deno-kv';
import { sentAttempt, storeCycle, TTL_MS } from './store-cycle.ts';

const { dir, pairs, warmupMs, durationMs, inFlight } = JSON.parse(Deno.args[0] ?? '{}');
const kv = await Deno.openKv(`${dir}/bench.sqlite3`);
const stores = denoKvStores(kv);
let next = 0;

/** What the routes ask of the stores for one paid order and its event. */
const paymountCycle = (key) => storeCycle(stores, key);

const at = (...parts) => ['bare', ...parts];

/** Reads `key` and commits `change` checked against that read: the one pattern every store call is. */
async function checked(key, change) {
  const read = await kv.get(key);
  const atomic = change(kv.atomic().check({ key, versionstamp: read.versionstamp }), read.value);
  if (!(await atomic.commit()).ok) throw new Error(`the commit on ${JSON.stringify(key)} was refused`);
}

/** The same reads and commits as paymountCycle, as bare Deno.Kv calls: no schema, no retry loop, no option. */
async function bareCycle(key) {
  const now = Date.now();
  const until = now + TTL_MS;
  const lock = at('order-lock', key);
  const attempt = at('order-attempt', key);
  const event = at('event', `event-${key}`);
  const token = crypto.randomUUID();
  await checked(lock, (atomic) => atomic.set(lock, { token, until }, { expireIn: TTL_MS }));
  await kv.get(attempt);
  const sent = sentAttempt(key);
  await checked(attempt, (atomic) =>
    atomic.set(attempt, { attempt: sent, until }, { expireIn: TTL_MS }).set(at('order-unsettled', 1, key), key, { expireIn: TTL_MS }),
  );
  await checked(attempt, (atomic) =>
    atomic
      .set(attempt, { attempt: { ...sent, state: 'succeeded', transactionId: `tx-${key}`, updatedAt: 2 }, until }, { expireIn: TTL_MS })
      .delete(at('order-unsettled', 1, key))
      .set(at('order-unsettled', 2, key), key, { expireIn: TTL_MS }),
  );
  await checked(attempt, (atomic, value) =>
    atomic.set(attempt, { attempt: { ...value.attempt, handled: true, updatedAt: 3 }, until }, { expireIn: TTL_MS }).delete(at('order-unsettled', 2, key)),
  );
  await checked(lock, (atomic) => atomic.delete(lock));
  await checked(event, (atomic) => atomic.set(event, { state: 'processing', token, until }, { expireIn: TTL_MS }));
  await checked(event, (atomic) => atomic.set(event, { state: 'done', token, until }, { expireIn: TTL_MS }));
}

/**
 * A window closes once it holds this many cycles, however long that takes: on a
 * machine busy enough, a 1.2 s window once held none, and its CPU per cycle was infinite.
 */
const MIN_WINDOW_CYCLES = 2 * inFlight;

/** Cycles per second of `cycle`, `inFlight` at a time, and CPU µs per cycle, counted over `ms` (or until MIN_WINDOW_CYCLES) after a warm-up. */
async function measureCycles(cycle, ms) {
  let stop = false;
  let done = 0;
  const loop = async () => {
    while (!stop) {
      await cycle(`order-${++next}`);
      done++;
    }
  };
  const loops = Array.from({ length: inFlight }, loop);
  await new Promise((resolve) => setTimeout(resolve, warmupMs));
  const [startDone, start, cpuAtStart] = [done, performance.now(), process.cpuUsage()];
  await new Promise((resolve) => setTimeout(resolve, ms));
  while (done - startDone < MIN_WINDOW_CYCLES) await new Promise((resolve) => setTimeout(resolve, 10));
  const [endDone, end, cpu] = [done, performance.now(), process.cpuUsage(cpuAtStart)];
  stop = true;
  await Promise.all(loops);
  const cycles = endDone - startDone;
  return { cyclesPerSecond: (cycles * 1_000) / (end - start), cpuMicrosPerCycle: (cpu.user + cpu.system) / cycles };
}

const sides = { paymount: paymountCycle, bare: bareCycle };
const measured = { paymount: [], bare: [] };
for (let pair = 0; pair < pairs; pair++) {
  // The order flips every pair, as the bench's paired runs do in Node.
  const order = pair % 2 === 0 ? ['paymount', 'bare'] : ['bare', 'paymount'];
  for (const side of order) measured[side].push(await measureCycles(sides[side], durationMs));
}
kv.close();
console.log(JSON.stringify(measured));
