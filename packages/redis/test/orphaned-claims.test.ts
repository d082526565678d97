import { silentLogger } from '@paymount/core';
import { describe, expect, it } from 'vitest';
import { OrphanedClaims } from '../src/orphaned-claims';

/** A release function over a plain map of key → token, which can be made to fail. */
function keyspace() {
  const keys = new Map<string, string>();
  let failing = false;
  return {
    keys,
    fail: (value: boolean) => void (failing = value),
    releaseIfOwned: async (key: string, token: string) => {
      if (failing) throw new Error('connection is closed');
      if (keys.get(key) !== token) return 0;
      keys.delete(key);
      return 1;
    },
  };
}

describe('OrphanedClaims', () => {
  it('frees only keys that still hold our token, and forgets each once done', async () => {
    const space = keyspace();
    space.keys.set('ours', 't1').set('theirs', 'other-token');
    const orphans = new OrphanedClaims(space.releaseIfOwned, silentLogger);
    orphans.add('ours', 't1');
    orphans.add('theirs', 't2');
    await orphans.undo();
    expect([...space.keys]).toEqual([['theirs', 'other-token']]);
    expect(orphans.size).toBe(0);
  });

  it('keeps what it could not free for the next attempt', async () => {
    const space = keyspace();
    space.keys.set('k', 't');
    const orphans = new OrphanedClaims(space.releaseIfOwned, silentLogger);
    orphans.add('k', 't');
    space.fail(true);
    await orphans.undo();
    expect(orphans.size).toBe(1);
    space.fail(false);
    await orphans.undo();
    expect(orphans.size).toBe(0);
    expect(space.keys.size).toBe(0);
  });

  it('holds at most maxEntries, forgetting the oldest', async () => {
    const space = keyspace();
    const orphans = new OrphanedClaims(space.releaseIfOwned, silentLogger, 2);
    for (const key of ['a', 'b', 'c']) {
      space.keys.set(key, `t-${key}`);
      orphans.add(key, `t-${key}`);
    }
    expect(orphans.size).toBe(2);
    await orphans.undo();
    expect([...space.keys.keys()]).toEqual(['a']);
  });
});
