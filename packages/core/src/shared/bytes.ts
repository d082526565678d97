/*
 * Text and byte encodings every runtime has: TextEncoder/TextDecoder and plain
 * loops, where Node code would reach for Buffer (absent on workerd and the edge
 * runtime). On Node they are as fast as Buffer's for the sizes paymount handles.
 */

const encoder = new TextEncoder();
// ignoreBOM keeps a leading byte-order mark in the text, as Buffer#toString does: a body is read exactly as sent.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The chunks as one array of `size` bytes (their total); a single chunk is returned as is. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const HEX_DIGITS = '0123456789abcdef';

/** Lowercase hex. */
export function hexOf(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 15]!;
  return out;
}

const BASE64_URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE64_URL_CODES = Uint8Array.from(BASE64_URL, (digit) => digit.charCodeAt(0));

/**
 * Unpadded base64url (RFC 4648 §5), as Buffer#toString('base64url') writes it.
 * For digests and other short input (the codes are spread into one call).
 * Character codes gathered then made one string: on Node, about as fast as
 * Buffer's for a digest, where concatenating digits costs several times more.
 */
export function base64UrlOf(bytes: Uint8Array): string {
  const codes: number[] = [];
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    codes.push(BASE64_URL_CODES[n >> 18]!, BASE64_URL_CODES[(n >> 12) & 63]!, BASE64_URL_CODES[(n >> 6) & 63]!, BASE64_URL_CODES[n & 63]!);
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    codes.push(BASE64_URL_CODES[n >> 18]!, BASE64_URL_CODES[(n >> 12) & 63]!);
    if (rest === 2) codes.push(BASE64_URL_CODES[(n >> 6) & 63]!);
  }
  return String.fromCharCode(...codes);
}

/** The value of each base64 and base64url digit (both alphabets at once), -1 for every other code below 128. */
const BASE64_VALUES = Int8Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  if (char === '+') return 62;
  if (char === '/') return 63;
  return BASE64_URL.indexOf(char);
});

/**
 * The bytes of base64 or base64url text (either alphabet, padding optional);
 * undefined when a character is of neither or the length cannot be base64.
 */
export function bytesOfBase64(text: string): Uint8Array | undefined {
  const digits = text.replace(/={1,2}$/, '');
  if (digits.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((digits.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = BASE64_VALUES[digits.charCodeAt(i)] ?? -1;
    if (digit < 0) return undefined;
    value = ((value << 6) | digit) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 255;
    }
  }
  return out;
}

/**
 * A body stream read whole, cancelled as soon as it grows past `limitBytes`
 * (`tooLarge` is thrown then): a declared length can lie, and a compressed
 * body can inflate past any limit. Cancelled too when `signal` aborts: its
 * caller gave up on it, and the runtime can stop taking the rest in.
 */
export async function readUpTo(
  stream: ReadableStream<Uint8Array>,
  limitBytes: number,
  tooLarge: () => Error,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  // A cancelled stream settles the pending read as done: what was read is answered to a caller no longer waiting.
  signal?.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  return concatBytes(chunks, size);
}
