import { describe, expect, it } from 'vitest';
import { SessionStore } from '../src/sessions';
import { checkedSessionBody } from './helpers';

const randomPart = (id: string) => id.slice(id.indexOf('_') + 1);

describe('SessionStore ids', () => {
  it('gives every session a sessionId and a transactionId of 128 random bits, neither showing the other', () => {
    const store = new SessionStore();
    const sessions = Array.from({ length: 50 }, (_, n) => store.create(checkedSessionBody(`r${n}`), 'test', 0));
    for (const session of sessions) {
      expect(session.sessionId).toMatch(/^cs_[0-9a-f]{32}$/);
      expect(session.transactionId).toMatch(/^txn_[0-9a-f]{32}$/);
      expect(randomPart(session.transactionId)).not.toBe(randomPart(session.sessionId));
    }
    expect(new Set(sessions.flatMap((session) => [randomPart(session.sessionId), randomPart(session.transactionId)])).size).toBe(100);
  });

  it('finds a session by its transactionId in its own environment only', () => {
    const store = new SessionStore();
    const session = store.create(checkedSessionBody('r1'), 'production', 0);
    expect(store.findByTransactionId('production', session.transactionId, 0)).toBe(session);
    expect(store.findByTransactionId('test', session.transactionId, 0)).toBeUndefined();
  });

  it('finds nothing by an id that is not one of its transactions', () => {
    const store = new SessionStore();
    const session = store.create(checkedSessionBody('r1'), 'test', 0);
    const other = new SessionStore().create(checkedSessionBody('r1'), 'test', 0);
    const bits = randomPart(session.transactionId);
    for (const id of [session.sessionId, `txn_${randomPart(session.sessionId)}`, other.transactionId, `txn_${bits.toUpperCase()}`, `txn_${bits}0`, bits, 'txn_']) {
      expect(store.findByTransactionId('test', id, 0)).toBeUndefined();
    }
  });

  it('brings a session found by its transactionId up to date, expiring it after its 30 minutes', () => {
    const closed: string[] = [];
    const store = new SessionStore((session) => closed.push(session.sessionId));
    const session = store.create(checkedSessionBody('r1'), 'test', 0);
    expect(store.findByTransactionId('test', session.transactionId, 30 * 60_000)?.state).toBe('expired');
    expect(closed).toEqual([session.sessionId]);
  });
});
