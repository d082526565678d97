import { randomFillSync } from 'node:crypto';

export const ID_BYTES = 16;
/** Drawn 256 ids at a time: one call into the system's generator serves many ids, as randomUUID's own cache does. */
const pool = Buffer.alloc(ID_BYTES * 256);
let next = pool.length;

/** Where the next ID_BYTES fresh random bytes of the pool start. */
function take(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  next += ID_BYTES;
  return next - ID_BYTES;
}

/**
 * 32 lowercase hex digits, 128 random bits: the trace, session and
 * transaction ids. Read from the pool as one flat string, it costs a quarter
 * of a dash-stripped randomUUID, and a map keyed by it hashes it faster.
 */
export function randomHexId(): string {
  const at = take();
  return pool.toString('hex', at, at + ID_BYTES);
}

/**
 * Two ids of 32 hex digits from one draw: the random bits, and the same bits
 * masked (XOR) with `mask`, ID_BYTES long. Without the mask neither tells
 * anything about the other; with it, `unmaskHexId` turns the second back into
 * the first.
 */
export function maskedHexIdPair(mask: Buffer): [string, string] {
  const at = take();
  const plain = pool.toString('hex', at, at + ID_BYTES);
  for (let i = 0; i < ID_BYTES; i++) pool[at + i] = pool[at + i]! ^ mask[i]!;
  return [plain, pool.toString('hex', at, at + ID_BYTES)];
}

const HEX_ID = /^[0-9a-f]{32}$/;

/** The id `maskedHexIdPair` paired with `hex` under `mask`, or undefined when `hex` is not such an id. */
export function unmaskHexId(hex: string, mask: Buffer): string | undefined {
  if (!HEX_ID.test(hex)) return undefined;
  const bytes = Buffer.from(hex, 'hex');
  for (let i = 0; i < ID_BYTES; i++) bytes[i] = bytes[i]! ^ mask[i]!;
  return bytes.toString('hex');
}
