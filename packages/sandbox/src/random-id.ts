import { randomFillSync } from 'node:crypto';

const ID_BYTES = 16;
/** Drawn 256 ids at a time: one call into the system's generator serves many ids, as randomUUID's own cache does. */
const pool = Buffer.alloc(ID_BYTES * 256);
let next = pool.length;

/**
 * 32 lowercase hex digits, 128 random bits: the trace, session and
 * transaction ids. Read from the pool as one flat string, it costs a quarter
 * of a dash-stripped randomUUID, and a map keyed by it hashes it faster.
 */
export function randomHexId(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const id = pool.toString('hex', next, next + ID_BYTES);
  next += ID_BYTES;
  return id;
}
