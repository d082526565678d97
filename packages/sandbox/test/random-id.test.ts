import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ID_BYTES, maskedIdPair, randomId, unmaskHexId } from '../src/random-id';

describe('random ids', () => {
  it('are the prefix and 32 lowercase hex digits, never repeating, across many draws of the pool', () => {
    const ids = Array.from({ length: 2_000 }, (_, n) => randomId(n % 2 === 0 ? '' : 'txn_'));
    for (const [n, id] of ids.entries()) expect(id).toMatch(n % 2 === 0 ? /^[0-9a-f]{32}$/ : /^txn_[0-9a-f]{32}$/);
    expect(new Set(ids.map((id) => id.slice(-32))).size).toBe(ids.length);
  });

  it('pair a plain and a masked id that only the mask relates', () => {
    const mask = randomBytes(ID_BYTES);
    const [plain, masked] = maskedIdPair('cs_', 'txn_', mask);
    expect(plain).toMatch(/^cs_[0-9a-f]{32}$/);
    expect(masked).toMatch(/^txn_[0-9a-f]{32}$/);
    const xor = Buffer.from(plain.slice(3), 'hex').map((byte, i) => byte ^ Buffer.from(masked.slice(4), 'hex')[i]!);
    expect(Buffer.from(xor).equals(mask)).toBe(true);
    expect(unmaskHexId(masked.slice(4), mask, 'cs_')).toBe(plain);
    expect(unmaskHexId(masked.slice(4), randomBytes(ID_BYTES), 'cs_')).not.toBe(plain);
  });

  it('unmask only 32 lowercase hex digits', () => {
    const mask = randomBytes(ID_BYTES);
    for (const hex of ['', 'abc', 'A'.repeat(32), `${'a'.repeat(31)}g`, 'a'.repeat(33), ` ${'a'.repeat(31)}`]) {
      expect(unmaskHexId(hex, mask, 'cs_')).toBeUndefined();
    }
  });
});
