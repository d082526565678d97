import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../harness/load-generator';
import { meetsTarget } from '../harness/results';
import { ackFiguresOf, throughputFigureOf } from './webhook-queue';

/** Five runs answered with these p50 and p99 latencies (ms). */
function runs(p50: number, p99: number): LoadResult[] {
  return Array.from({ length: 5 }, () => ({
    ops: 1000,
    failures: 0,
    elapsedMs: 1000,
    opsPerSecond: 1000,
    latencyMs: { p50, p99, max: p99 * 2 },
    cpuMicrosPerOp: 100,
    statuses: { '200': 1000 },
  }));
}

describe('the webhook-queue figures', () => {
  it('are the queued acknowledgement latency over the inline one: p50 reported, p99 held to 1.5', () => {
    const [p50, p99] = ackFiguresOf(new Map([['queued', runs(3, 12)], ['inline', runs(2, 10)]]));
    expect(p50).toMatchObject({ id: 'webhook-queue-ack', ratio: { median: 1.5 }, target: null, higherIsBetter: false });
    expect(meetsTarget(p50!)).toBeUndefined();
    expect(p99).toMatchObject({ id: 'webhook-queue-ack-p99', ratio: { median: 1.2 }, target: 1.5, higherIsBetter: false });
    expect(meetsTarget(p99!)).toBe(true);
    expect(meetsTarget(ackFiguresOf(new Map([['queued', runs(3, 16)], ['inline', runs(2, 10)]]))[1]!)).toBe(false);
    expect(p99!.absolute).toMatchObject({ queued: { p99: { median: 12, unit: 'ms' } }, inline: { p50: { median: 2, unit: 'ms' } } });
  });

  it('reports the workers’ events per second over inline handling, pair by pair, the median of the pairs', () => {
    const figure = throughputFigureOf([
      { queued: 1200, inline: 1000 },
      { queued: 900, inline: 1000 },
      { queued: 3000, inline: 1000 },
    ]);
    expect(figure).toMatchObject({ id: 'webhook-queue-3workers', ratio: { median: 1.2, min: 0.9, max: 3 }, target: null, higherIsBetter: true });
    expect(figure.absolute).toEqual({ queued: { median: 1200, min: 900, max: 3000, unit: 'events/s' }, inline: { median: 1000, min: 1000, max: 1000, unit: 'events/s' } });
  });
});

describe('the webhook-queue group on a machine without redis-server', () => {
  it('is skipped, saying which figures were not measured and why', () => {
    const group = JSON.stringify(new URL('./webhook-queue.ts', import.meta.url).href);
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: mkdtempSync(join(tmpdir(), 'paymount-no-redis-')) };
    delete env.CI;
    const script = `const { redisServerMissing } = await import(${group}); console.log(JSON.stringify(await redisServerMissing()));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env, encoding: 'utf8', timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toBe('redis-server is not on PATH, so webhook-queue-ack and webhook-queue-ack-p99 and webhook-queue-3workers were not measured');
  });
});
