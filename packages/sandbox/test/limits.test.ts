import { describe, expect, it } from 'vitest';
import { FaultPlan } from '../src/faults';
import { RateLimiter } from '../src/rate-limit';
import { RequestIdWindow } from '../src/request-ids';

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

  it('refuses a nonsensical limit', () => {
    expect(() => new RateLimiter({ limit: 0, windowMs: 1000 })).toThrow(/limit/);
    expect(() => new RateLimiter({ limit: 1, windowMs: 0 })).toThrow(/windowMs/);
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

  it('refuses bad settings', () => {
    const plan = new FaultPlan();
    expect(() => plan.inject({ kind: 'delay', delayMs: -1 })).toThrow(/delayMs/);
    expect(() => plan.inject({ kind: 's04', times: 0 })).toThrow(/times/);
    expect(() => plan.setRandom({ seed: 1, rate: 2, kinds: ['s04'] })).toThrow(/rate/);
    expect(() => plan.setRandom({ seed: 1, rate: 0.5, kinds: [] })).toThrow(/kinds/);
  });
});
