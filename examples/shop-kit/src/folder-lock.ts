import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'shop.lock';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims `dir` for this process, or throws naming the process that holds it:
 * PGlite serves one process, and two writing one folder would corrupt it. A
 * lock left by a process that died (killed, crashed) is taken over. Resolves
 * the release.
 */
export function lockFolder(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(readFileSync(file, 'utf8'));
    if (Number.isInteger(holder) && holder > 0 && isRunning(holder)) {
      throw new Error(
        `Another process (pid ${holder}) keeps its orders in ${dir}, and PGlite serves one process at a time. ` +
          'Stop that shop, or give this one a PostgreSQL server through DATABASE_URL.',
      );
    }
    writeFileSync(file, String(process.pid));
  }
  return () => rmSync(file, { force: true });
}
