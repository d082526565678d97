import { describe, expect, it } from 'vitest';
import { isSessionExpired, parseExpiresAt, paymentStatusOf, SESSION_LIFETIME_MS } from '../src';

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

  it('counts 30 minutes from receipt when absent or unreadable', () => {
    for (const value of [undefined, null, '', 'soon', -5, Number.NaN]) {
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
