import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { descendantsNamed, parentOf, processCpuMicros, processTreeCpuMicros } from './process-cpu';

/** The CPU the child spends before it reports, measured by itself: no wall-clock window, however busy the machine. */
const CHILD_CPU_MICROS = 200_000;
/** /proc counts in 10 ms ticks. */
const TICK_MICROS = 10_000;

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

/** A node child that burns CHILD_CPU_MICROS of its own CPU, says so, then waits to be killed. */
async function busyChild() {
  const script = `const start = process.cpuUsage(); let spent = 0;
    while (spent < ${CHILD_CPU_MICROS}) { const used = process.cpuUsage(start); spent = used.user + used.system; }
    console.log('spent'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await once(child.stdout!, 'data');
  return child.pid!;
}

describe('CPU time of other processes', () => {
  it("reads a child's CPU, finds it by name among this process's descendants, and adds it into this process's tree", async () => {
    const child = await busyChild();
    expect(parentOf(child)).toBe(process.pid);
    expect(descendantsNamed('node')).toContain(child);
    expect(processCpuMicros(child)).toBeGreaterThanOrEqual(CHILD_CPU_MICROS - TICK_MICROS);
    expect(processTreeCpuMicros(process.pid)).toBeGreaterThanOrEqual(processCpuMicros(process.pid) + CHILD_CPU_MICROS - TICK_MICROS);
  });

  it('refuses to read a process that has gone, naming it, rather than reporting 0', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    expect(() => processCpuMicros(child.pid!)).toThrow(`process ${child.pid} has gone`);
  });
});
