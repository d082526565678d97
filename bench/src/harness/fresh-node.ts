import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCH_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TIMEOUT_MS = 30_000;

/**
 * Milliseconds a brand-new plain Node process (no loader, no cache) spends in
 * `require()` of `modules`, one after another; Node's own start is not counted.
 */
export function timeRequire(modules: readonly string[]): Promise<number> {
  const script = `const t=performance.now();for(const m of ${JSON.stringify(modules)})require(m);process.stdout.write(String(performance.now()-t));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { cwd: BENCH_ROOT, timeout: TIMEOUT_MS }, (error, stdout) => {
      if (error) reject(new Error(`require(${modules.join(', ')}) failed: ${error.message}`));
      else resolve(Number(stdout));
    });
  });
}
