import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const GROUP = new URL('./webhook-stores.ts', import.meta.url).href;
const HELPER = new URL('../../../tools/redis-server.ts', import.meta.url).href;

/**
 * In a process whose PATH has no redis-server: loads the group as run.ts does,
 * then asks what a run and a test suite ask, and tries to start a server.
 */
const WITHOUT_REDIS = `
const { redisServerMissing } = await import(${JSON.stringify(GROUP)});
const { redisSkipped, startRedisServer } = await import(${JSON.stringify(HELPER)});
const missing = await redisServerMissing();
const skipped = [redisSkipped(), redisSkipped()];
const started = await startRedisServer().then(() => 'started', (error) => error.message);
console.log(JSON.stringify({ missing, skipped, started }));
`;

describe('the webhook-stores group on a machine without redis-server', () => {
  it('loads silently, is skipped with the reason, and a start attempt is refused naming the fix instead of crashing the process', () => {
    const emptyPath = mkdtempSync(join(tmpdir(), 'paymount-no-redis-'));
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: emptyPath };
    delete env.CI;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WITHOUT_REDIS], { env, encoding: 'utf8', timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({
      missing: 'redis-server is not on PATH, so webhook-redis and webhook-redis-3proc were not measured',
      skipped: [true, true],
      started: expect.stringMatching(/^redis-server could not be started \(spawn redis-server ENOENT\): install it with `apt-get install redis-server`/),
    });
    // One warning, from the first suite that asked: none when the helper was loaded, none repeated.
    expect(child.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Skipping the Redis tests: redis-server was not found on PATH; install it with/)]);
  });
});
