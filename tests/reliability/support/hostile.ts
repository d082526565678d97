import fc from 'fast-check';

/** Characters that break naive code: NUL, controls, lone surrogates, RTL marks, BOM, combining marks, emoji. */
const EDGE_CHARS = ['\u0000', '\u0007', '\u001b', '\ud800', '\udfff', '\u202e', '\ufeff', '\u0301', '\u{1f4b3}', '\u2028', '"', '\\', '<', '%'];

export const edgeString = (maxLength = 64): fc.Arbitrary<string> =>
  fc.string({ unit: fc.oneof(fc.constantFrom(...EDGE_CHARS), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength });

/** Nested arrays/objects `depth` levels deep, as a JSON text: the shape of a stack-exhaustion attempt. */
export const deepJsonText = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`);

/** Any JS value a caller or a parsed body might produce: wrong types, huge numbers, odd prototypes, unicode edges. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.anything({
      maxDepth: 4,
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withTypedArray: true,
      withSparseArray: true,
      withBoxedValues: true,
      withUnicodeString: true,
    }),
    edgeString(),
    fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, Number.MAX_SAFE_INTEGER + 2, 1e308, 12.5, -1),
    fc.constant({ ['__proto__']: { polluted: true } }),
    fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')),
    fc.string({ maxLength: 10 }).map((s) => s.repeat(2_000)),
  );
}

/** Header values HTTP can carry: visible ASCII, spaces and tabs (no CR/LF, which the client refuses to send). */
export const headerValue = (maxLength = 80): fc.Arbitrary<string> =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength });

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates included, which encodeURIComponent refuses). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

/** JSON text of any value, BigInt included (as a string): what a hostile client can put on the wire. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner)) ?? 'null';
}

/** Query strings: repeated and bracketed keys, prototype keys, broken percent escapes, huge and unicode values. */
export const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom('orderId', 'orderId[]', 'orderId[a]', 'orderId[__proto__]', '__proto__[polluted]', 'constructor[prototype][x]', 'x'),
      fc.oneof(
        edgeString(40).map(percentEncode),
        fc.constantFrom('', '%', '%zz', '%C3', '%00', 'known', '+++', '%E2%80%AE', 'a=b=c'),
        // Long, but under Node's 16 KiB header limit, past which Node itself answers 431 before any app code runs.
        fc.integer({ min: 500, max: 2_000 }).map((n) => 'q'.repeat(n)),
      ),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&'));
