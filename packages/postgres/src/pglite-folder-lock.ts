import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const LOCK_FILE = 'paymount-pglite.lock';

/** The lock files this process holds: a lock naming this pid that is not among them is a previous life's (a restarted container's process gets the same pid). */
const held = new Set<string>();

export interface LockPGliteFolderOptions {
  /** What the refusal tells to do, after naming the process that holds the folder. */
  fix?: string;
}

const DEFAULT_FIX = 'Stop that process, or use a PostgreSQL server (fromPg, fromPostgresJs) for several processes.';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a lock file says (its holder's pid, then a token no other claim shares), or undefined when it is gone. */
function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The pid of a lock held by a running process other than this one's earlier life, or undefined when the lock is stale. */
function liveHolder(file: string, lock: string): number | undefined {
  const pid = Number(lock.split(' ', 1)[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid)) return undefined;
  return pid === process.pid && !held.has(file) ? undefined : pid;
}

/** A name beside `file` no other process or call uses. */
const besideOf = (file: string) => `${file}.${process.pid}.${randomUUID()}`;

/** Creates `file` holding `content`, or false when it exists: linked in whole, so no reader ever finds it empty. */
function createWhole(file: string, content: string): boolean {
  const whole = besideOf(file);
  writeFileSync(whole, content, { flag: 'wx' });
  try {
    linkSync(whole, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(whole, { force: true });
  }
}

/**
 * Moves a stale lock out of the way. Two processes may find the same stale
 * lock: the rename lets one of them move it; one that moved a lock another
 * had just claimed in its place links that lock back.
 */
function removeStale(file: string, stale: string): void {
  const aside = besideOf(file);
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readLock(aside) !== stale) linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Claims a PGlite data folder for this process, or throws naming the process
 * that holds it: PGlite serves one process, and two on one folder would each
 * run the same events' handlers while the folder keeps only one's writes. A
 * lock left by a process that no longer runs (killed, crashed) is taken over.
 * Call it before `PGlite.create(dir)` (`fromPGlite` claims the folder too,
 * when it is not yet this process's). Returns the release.
 */
export function lockPGliteFolder(dir: string, options: LockPGliteFolderOptions = {}): () => void {
  const file = join(resolve(dir), LOCK_FILE);
  const mine = `${process.pid} ${randomUUID()}`;
  // A few rounds: each one lost to another process starting at the same moment ends with that process holding a live lock.
  for (let round = 0; round < 5; round += 1) {
    if (createWhole(file, mine)) {
      held.add(file);
      return () => {
        held.delete(file);
        if (readLock(file) === mine) rmSync(file, { force: true });
      };
    }
    const lock = readLock(file);
    if (lock === undefined) continue;
    const holder = liveHolder(file, lock);
    if (holder !== undefined) {
      throw new Error(`Another process (pid ${holder}) keeps its data in ${dir}, and PGlite serves one process at a time. ${options.fix ?? DEFAULT_FIX}`);
    }
    removeStale(file, lock);
  }
  throw new Error(`The PGlite data folder ${dir} was claimed and released by other processes over and over; start this one again once they settled.`);
}

/** The folder of a PGlite `dataDir` on the file system (a path, or `file://` and one); none for `memory://`, `idb://` and the like. */
function folderOf(dataDir: string | undefined): string | undefined {
  if (dataDir === undefined || dataDir === '') return undefined;
  if (dataDir.startsWith('file://')) return dataDir.slice('file://'.length);
  return /^[a-z][a-z\d+.-]*:\/\//i.test(dataDir) ? undefined : dataDir;
}

/**
 * Claims the folder of an open PGlite (`db.dataDir`) for the rest of this
 * process's life, unless this process holds it already (a caller that locked
 * it before `PGlite.create`). Throws as lockPGliteFolder does.
 */
export function claimPGliteFolder(dataDir: string | undefined): void {
  const dir = folderOf(dataDir);
  if (dir === undefined || held.has(join(resolve(dir), LOCK_FILE))) return;
  process.once('exit', lockPGliteFolder(dir));
}
