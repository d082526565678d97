import { randomFillSync } from 'node:crypto';

export const ID_BYTES = 16;
/** Drawn 256 ids at a time: one call into the system's generator serves many ids, as randomUUID's own cache does. */
const pool = Buffer.alloc(ID_BYTES * 256);
let next = pool.length;

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Where an id's text is written before it is read as one string; long enough for any prefix used here. */
const text = Buffer.alloc(2 * ID_BYTES + 16);

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
 * `prefix` and the hex digits of the ID_BYTES at `at` of `bytes`, read as one
 * flat string: a concatenation would be a rope, which a map copies before it
 * can hash it (about 0.2 µs an insert into a large one).
 */
function idText(prefix: string, bytes: Buffer, at: number): string {
  for (let i = 0; i < prefix.length; i++) text[i] = prefix.charCodeAt(i);
  for (let i = 0; i < ID_BYTES; i++) {
    const byte = bytes[at + i]!;
    text[prefix.length + 2 * i] = HEX_DIGITS[byte >> 4]!;
    text[prefix.length + 2 * i + 1] = HEX_DIGITS[byte & 15]!;
  }
  return text.toString('latin1', 0, prefix.length + 2 * ID_BYTES);
}

/**
 * `prefix` and 32 lowercase hex digits, 128 random bits: the trace, session
 * and transaction ids. Read from the pool, it costs a quarter of a
 * dash-stripped randomUUID, and a map keyed by it hashes it faster.
 */
export function randomId(prefix = ''): string {
  return idText(prefix, pool, take());
}

/**
 * Two ids from one draw: `prefix` and the random bits, and `maskedPrefix` and
 * the same bits masked (XOR) with `mask`, ID_BYTES long. Without the mask
 * neither tells anything about the other; with it, `unmaskHexId` turns the
 * second's digits back into the first's.
 */
export function maskedIdPair(prefix: string, maskedPrefix: string, mask: Buffer): [string, string] {
  const at = take();
  const plain = idText(prefix, pool, at);
  for (let i = 0; i < ID_BYTES; i++) pool[at + i] = pool[at + i]! ^ mask[i]!;
  return [plain, idText(maskedPrefix, pool, at)];
}

const HEX_ID = /^[0-9a-f]{32}$/;

/** `prefix` and the digits `maskedIdPair` paired with `hex` under `mask`, or undefined when `hex` is not 32 such digits. */
export function unmaskHexId(hex: string, mask: Buffer, prefix: string): string | undefined {
  if (!HEX_ID.test(hex)) return undefined;
  const bytes = Buffer.from(hex, 'hex');
  for (let i = 0; i < ID_BYTES; i++) bytes[i] = bytes[i]! ^ mask[i]!;
  return idText(prefix, bytes, 0);
}
