import { describe, expect, it } from 'vitest';
import { generateTransactionRequestId } from '../src';
import { backoffDelay, buildAuthHeaders, formatTimestamp, parseRetryAfter } from '../src/entries/internal';

describe('buildAuthHeaders', () => {
  it('builds exactly the four headers in the spec form', () => {
    const headers = buildAuthHeaders('sk_test_key', 1_800_000_000_000);
    expect(Object.keys(headers).sort()).toEqual(['Authorization', 'Content-Type', 'X-Client-Request-Id', 'X-Timestamp']);
    expect(headers.Authorization).toBe('Bearer sk_test_key');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['X-Timestamp']).toBe('1800000000000');
    expect(headers['X-Client-Request-Id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('leaves Content-Type out for a GET, which has no body', () => {
    const headers = buildAuthHeaders('sk_test_key', 1_800_000_000_000, 'GET');
    expect(Object.keys(headers).sort()).toEqual(['Authorization', 'X-Client-Request-Id', 'X-Timestamp']);
    expect(headers.Authorization).toBe('Bearer sk_test_key');
    expect(Object.keys(buildAuthHeaders('k', 1_800_000_000_000, 'POST'))).toContain('Content-Type');
  });

  it('uses a fresh request id every time', () => {
    const ids = new Set(Array.from({ length: 50 }, () => buildAuthHeaders('k', Date.now())['X-Client-Request-Id']));
    expect(ids.size).toBe(50);
  });

  it('refuses a clock that is not in 13-digit milliseconds', () => {
    expect(() => formatTimestamp(1_800_000_000)).toThrow(/13 digits/);
    expect(formatTimestamp(1_800_000_000_000.7)).toBe('1800000000000');
  });
});

describe('generateTransactionRequestId', () => {
  it('fits the spec: at most 32 characters of the allowed alphabet, and unique', () => {
    const ids = Array.from({ length: 100 }, generateTransactionRequestId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(new Set(ids).size).toBe(100);
  });
});

describe('backoffDelay', () => {
  const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };

  it('draws within an exponentially growing cap (full jitter)', () => {
    expect(backoffDelay(policy, 1, () => 0.999)).toBe(99);
    expect(backoffDelay(policy, 2, () => 0.999)).toBe(199);
    expect(backoffDelay(policy, 3, () => 0.5)).toBe(200);
    expect(backoffDelay(policy, 1, () => 0)).toBe(0);
  });

  it('never exceeds maxDelayMs', () => {
    expect(backoffDelay(policy, 10, () => 0.999)).toBe(999);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2030, 0, 1);

  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(['7'], now)).toBe(7000);
    expect(parseRetryAfter(new Date(now + 4000).toUTCString(), now)).toBe(4000);
    expect(parseRetryAfter(new Date(now - 4000).toUTCString(), now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
