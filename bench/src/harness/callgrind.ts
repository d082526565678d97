import { execFile, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Whether valgrind can be run here; asked of the system once per process. */
let available: boolean | undefined;
export function valgrindAvailable(): boolean {
  available ??= spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;
  return available;
}

/** Instructions callgrind has counted in process `pid` so far, every thread's. */
async function instructionsSoFar(pid: number): Promise<number> {
  const { stdout } = await promisify(execFile)('callgrind_control', ['-e', 'Ir', String(pid)]);
  const totals = stdout.slice(stdout.indexOf('Totals:'));
  const threads = [...totals.matchAll(/^\s*(?:Th\s+\d+\s+)?([\d,]+)\s*$/gm)].map((match) => Number(match[1]!.replaceAll(',', '')));
  if (threads.length === 0) throw new Error(`callgrind_control -e printed no count for ${pid}: ${stdout.slice(-300)}`);
  return threads.reduce((sum, count) => sum + count, 0);
}

/**
 * Instructions per operation of `script` in its steady state, counted by
 * valgrind's callgrind. The script (subjects/call-loop.ts) runs `warmup`
 * operations, prints `warm` and waits for a line; then `ops` operations,
 * prints `done` and waits again. What callgrind counted between the two is
 * divided by `ops`: start-up and V8's compilation of the hot code, which
 * goes on for several thousand calls and would otherwise be most of the
 * count, stay out of it.
 */
export async function instructionsPerOp(
  script: URL,
  { nodeFlags = [], env = {}, warmup, ops }: { nodeFlags?: readonly string[]; env?: Record<string, string>; warmup: number; ops: number },
): Promise<number> {
  const args = [
    '--tool=callgrind',
    // V8 writes and rewrites machine code at run time: without this, valgrind runs stale translations.
    '--smc-check=all-non-file',
    '--callgrind-out-file=/dev/null',
    process.execPath,
    // V8's background compiler and collector threads finish at times that differ from run to run, and callgrind
    // counts every thread. And V8 starts a full collection partly by time (the memory reducer, heap growth by
    // allocation rate), so one run's window held one and the next none: the same side counted 303,000 and 375,000
    // instructions a call. With an old space that does not fill in the window, no full collection falls in it;
    // scavenges, which follow allocation, are still counted. Two runs at once of one side then agreed within 0.5%;
    // across four separate runs the SDK-work side still moved 5%, paymount's telemetry side 0.6%.
    '--single-threaded',
    '--initial-old-space-size=1024',
    ...nodeFlags,
    '--import',
    'tsx',
    fileURLToPath(script),
  ];
  const child = spawn('valgrind', args, { env: { ...process.env, ...env, WARMUP: String(warmup), OPS: String(ops) }, stdio: ['pipe', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-2_000)));
  const exited = new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const expect = async (word: string) => {
    const line = await Promise.race([lines.next(), exited.then((code) => ({ done: true, value: `exit ${code}` }))]);
    if (line.done || line.value !== word) throw new Error(`callgrind run of ${script.pathname} printed ${String(line.value)}, not ${word}: ${log.slice(-500)}`);
  };
  try {
    await expect('warm');
    const before = await instructionsSoFar(child.pid!);
    child.stdin.write('go\n');
    await expect('done');
    const after = await instructionsSoFar(child.pid!);
    child.stdin.end();
    await exited;
    return (after - before) / ops;
  } finally {
    child.kill();
  }
}
