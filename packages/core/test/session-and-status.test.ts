import { describe, expect, it } from 'vitest';
import { isSessionExpired, paymentStatusOf } from '../src';
import { parseExpiresAt, SESSION_LIFETIME_MS } from '../src/entries/internal';

describe('paymentStatusOf', () => {
  it('maps S, F and C to their final states, and anything else to pending', () => {
    expect(paymentStatusOf('S')).toBe('succeeded');
    expect(paymentStatusOf('F')).toBe('failed');
    expect(paymentStatusOf('C')).toBe('closed');
    for (const other of ['I', 'P', 'X', 'c', '', undefined]) expect(paymentStatusOf(other)).toBe('pending');
  });
});

describe('parseExpiresAt', () => {
  const receivedAt = Date.UTC(2030, 0, 1);

  it('reads ISO 8601, epoch milliseconds and epoch seconds (numbers or digit strings)', () => {
    expect(parseExpiresAt('2030-01-01T00:30:00Z', receivedAt).getTime()).toBe(receivedAt + SESSION_LIFETIME_MS);
    expect(parseExpiresAt('2030-01-01T01:30:00+01:00', receivedAt).getTime()).toBe(receivedAt + SESSION_LIFETIME_MS);
    expect(parseExpiresAt(receivedAt + 1000, receivedAt).getTime()).toBe(receivedAt + 1000);
    expect(parseExpiresAt((receivedAt + 60_000) / 1000, receivedAt).getTime()).toBe(receivedAt + 60_000);
    expect(parseExpiresAt(String(receivedAt + 5000), receivedAt).getTime()).toBe(receivedAt + 5000);
  });

  it('keeps values from a year before receipt (a session answered again for a repeated id) to a day after it', () => {
    expect(parseExpiresAt(receivedAt - 60_000, receivedAt).getTime()).toBe(receivedAt - 60_000);
    expect(parseExpiresAt(receivedAt - 3_600_000, receivedAt).getTime()).toBe(receivedAt - 3_600_000);
    expect(parseExpiresAt(receivedAt - 366 * 86_400_000, receivedAt).getTime()).toBe(receivedAt - 366 * 86_400_000);
    expect(parseExpiresAt(receivedAt + 24 * 3_600_000, receivedAt).getTime()).toBe(receivedAt + 24 * 3_600_000);
  });

  it('counts 30 minutes from receipt when absent, unreadable or implausible', () => {
    const implausible = [
      1e20, // past what a Date holds
      Number.POSITIVE_INFINITY,
      '99999999999999999999',
      receivedAt - 366 * 86_400_000 - 1, // more than a year before receipt
      receivedAt + 24 * 3_600_000 + 1, // more than a day after it
      '2100-01-01T00:00:00Z',
      '1970-01-02T00:00:00Z',
    ];
    for (const value of [undefined, null, '', 'soon', -5, Number.NaN, ...implausible]) {
      expect(parseExpiresAt(value, receivedAt).getTime()).toBe(receivedAt + SESSION_LIFETIME_MS);
    }
  });
});

describe('isSessionExpired', () => {
  const session = { expiresAt: new Date(Date.UTC(2030, 0, 1, 0, 30)) };

  it('is false before expiresAt and true from it on', () => {
    expect(isSessionExpired(session, session.expiresAt.getTime() - 1)).toBe(false);
    expect(isSessionExpired(session, session.expiresAt.getTime())).toBe(true);
    expect(isSessionExpired(session, new Date(session.expiresAt.getTime() + 1))).toBe(true);
  });

  it('defaults to the current time', () => {
    expect(isSessionExpired({ expiresAt: new Date(Date.now() + 60_000) })).toBe(false);
    expect(isSessionExpired({ expiresAt: new Date(Date.now() - 1) })).toBe(true);
  });
});
