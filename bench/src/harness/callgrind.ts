import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Whether valgrind can be run here; asked of the system once per process. */
let available: boolean | undefined;
export function valgrindAvailable(): boolean {
  available ??= spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;
  return available;
}

/** Instructions valgrind's callgrind counted over a whole run of `script` (every thread, startup included). */
function instructionsOfRun(script: URL, nodeFlags: readonly string[], env: Record<string, string>): Promise<number> {
  const args = [
    '--tool=callgrind',
    // V8 writes and rewrites machine code at run time: without this, valgrind runs stale translations.
    '--smc-check=all-non-file',
    '--callgrind-out-file=/dev/null',
    process.execPath,
    ...nodeFlags,
    '--import',
    'tsx',
    fileURLToPath(script),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const collected = /Collected : (\d+)/.exec(log);
      if (code !== 0 || !collected) reject(new Error(`callgrind run of ${script.pathname} failed (exit ${code}): ${log.slice(-500)}`));
      else resolve(Number(collected[1]));
    });
  });
}

/**
 * Instructions per operation of `script` (which runs `OPS` operations, given
 * in its environment): the difference between a run of `few` and one of
 * `many` operations, over the operations added, so the start-up and
 * warm-up both runs share cancel out. Counts repeat exactly where times on a
 * busy machine do not.
 */
export async function instructionsPerOp(
  script: URL,
  { nodeFlags = [], env = {}, few, many }: { nodeFlags?: readonly string[]; env?: Record<string, string>; few: number; many: number },
): Promise<number> {
  const [small, large] = await Promise.all([few, many].map((ops) => instructionsOfRun(script, nodeFlags, { ...env, OPS: String(ops) })));
  return (large! - small!) / (many - few);
}
