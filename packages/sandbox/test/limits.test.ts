import { describe, expect, it } from 'vitest';
import { FaultPlan } from '../src/faults';
import { Ledger } from '../src/ledger';
import { OldestFirst } from '../src/oldest-first';
import { RateLimiter } from '../src/rate-limit';
import { RequestIdWindow } from '../src/request-ids';
import { SessionStore } from '../src/sessions';
import { checkedSessionBody } from './helpers';

describe('RateLimiter', () => {
  it('allows `limit` calls per sliding window and says how long to wait', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 2, windowMs: 1000 }, () => now);
    expect(limiter.take()).toBeUndefined();
    now = 400;
    expect(limiter.take()).toBeUndefined();
    expect(limiter.take()).toBe(600);
    now = 1000;
    expect(limiter.take()).toBeUndefined();
    expect(limiter.take()).toBe(400);
  });
});

describe('RequestIdWindow', () => {
  it('refuses a repeat inside the window and accepts it after', () => {
    const window = new RequestIdWindow(600_000);
    expect(window.claim('a', 0)).toBe(true);
    expect(window.claim('a', 599_999)).toBe(false);
    expect(window.claim('a', 600_000)).toBe(true);
  });

  it('stays bounded, forgetting the oldest ids first', () => {
    const window = new RequestIdWindow(600_000, 3);
    for (const id of ['a', 'b', 'c', 'd']) window.claim(id, 0);
    expect(window.claim('a', 1)).toBe(true);
    expect(window.claim('d', 1)).toBe(false);
  });

  it('dates a repeated id from its last claim, not its first', () => {
    const window = new RequestIdWindow(600_000);
    window.claim('a', 0);
    window.claim('b', 1);
    expect(window.claim('a', 600_000)).toBe(true);
    // 'b' has left the window; the first claim of 'a' must not take the second one with it.
    expect(window.claim('c', 600_001)).toBe(true);
    expect(window.claim('b', 600_002)).toBe(true);
    expect(window.claim('a', 600_002)).toBe(false);
  });

  it('counts an id claimed twice once towards its bound', () => {
    const window = new RequestIdWindow(10, 2);
    window.claim('a', 0);
    window.claim('a', 10);
    window.claim('b', 10);
    expect(window.claim('a', 11)).toBe(false);
    expect(window.claim('b', 11)).toBe(false);
  });
});

describe('OldestFirst', () => {
  it('gives items back in the order they came, however many were taken before', () => {
    const queue = new OldestFirst<number>();
    for (let n = 0; n < 10; n++) queue.push(n);
    const taken = [queue.shift(), queue.shift(), queue.shift()];
    for (let n = 10; n < 13; n++) queue.push(n);
    expect(taken).toEqual([0, 1, 2]);
    expect(queue.peek()).toBe(3);
    const rest: (number | undefined)[] = [];
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) rest.push(item);
    expect(rest).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(queue.peek()).toBeUndefined();
  });
});

describe('bounded stores', () => {
    it('a session store past its bound forgets its oldest sessions, by every id', () => {
    const store = new SessionStore(() => {}, 2);
    const [first, second, third] = ['r1', 'r2', 'r3'].map((id) => store.create(checkedSessionBody(id), 'test', 0));
    expect(store.get(first!.sessionId, 0)).toBeUndefined();
    expect(store.findByTransactionId('test', first!.transactionId, 0)).toBeUndefined();
    expect(store.get(second!.sessionId, 0)).toBe(second);
    expect(store.findByTransactionId('test', third!.transactionId, 0)).toBe(third);
  });

  it('the ledger past its bound forgets the oldest first results, a result set again keeping its place', () => {
    const ledger = new Ledger(2);
    ledger.remember('test', 'r1', 'create-session', { n: 1 });
    ledger.remember('test', 'r2', 'create-session', { n: 2 });
    ledger.remember('test', 'r1', 'create-session', { n: 3 });
    ledger.remember('test', 'r3', 'create-session', { n: 4 });
    expect(ledger.recall('test', 'r1', 'create-session')).toBeUndefined();
    expect(ledger.recall('test', 'r2', 'create-session')).toEqual({ n: 2 });
    expect(ledger.recall('test', 'r3', 'create-session')).toEqual({ n: 4 });
  });
});

describe('FaultPlan', () => {
  it('uses injected faults in order, each `times` times, honouring their path', () => {
    const plan = new FaultPlan();
    plan.inject({ kind: 'http-500', path: '/v1/a' });
    plan.inject({ kind: 's04', times: 2 });
    expect(plan.next('/v1/b')?.kind).toBe('s04');
    expect(plan.next('/v1/a')?.kind).toBe('http-500');
    expect(plan.next('/v1/a')?.kind).toBe('s04');
    expect(plan.next('/v1/a')).toBeUndefined();
  });

  // The random mode's settings are startSandbox's `faults` option, checked with the others (start-options.test.ts).
  it('refuses a bad injected fault', () => {
    const plan = new FaultPlan();
    expect(() => plan.inject({ kind: 'delay', delayMs: -1 })).toThrow(/delayMs/);
    expect(() => plan.inject({ kind: 's04', times: 0 })).toThrow(/times/);
  });
});
