import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of other processes, read from Linux's /proc: for figures whose
 * work runs outside this Node process (a PostgreSQL server, workerd), where
 * CPU per operation is what a busy machine disturbs least.
 */

/** Kernel clock ticks per second (USER_HZ), the unit of /proc/<pid>/stat's CPU times. */
const TICKS_PER_SECOND = 100;

interface ProcessStat {
  name: string;
  ppid: number;
  /** utime + stime + cutime + cstime (fields 14-17): the process's own CPU and that of its ended children. */
  cpuMicros: number;
}

function statOf(pid: number): ProcessStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The name (field 2) is in parentheses and may hold spaces; what follows starts at field 3.
  const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return { name, ppid: field(4), cpuMicros: ((field(14) + field(15) + field(16) + field(17)) * 1e6) / TICKS_PER_SECOND };
}

function liveProcesses(): Map<number, ProcessStat> {
  const processes = new Map<number, ProcessStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat !== undefined) processes.set(Number(entry), stat);
  }
  return processes;
}

/** Refuses where there is no /proc to read, naming why, rather than reporting 0 µs. */
function requireProcfs(): void {
  if (statOf(process.pid) === undefined) throw new Error(`CPU time of other processes is read from /proc/<pid>/stat, which ${process.platform} does not have`);
}

/** CPU used so far by `root` (with its ended children) and its live children: a PostgreSQL postmaster and its backends. */
export function processTreeCpuMicros(root: number): number {
  requireProcfs();
  let total = statOf(root)?.cpuMicros ?? 0;
  for (const stat of liveProcesses().values()) if (stat.ppid === root) total += stat.cpuMicros;
  return total;
}

/** The pids of this process's descendants named `name` (as /proc/<pid>/stat spells it), e.g. the workerd Miniflare started. */
export function descendantsNamed(name: string): number[] {
  requireProcfs();
  const processes = liveProcesses();
  const isDescendant = (pid: number): boolean => {
    for (let stat = processes.get(pid); stat !== undefined; stat = processes.get(stat.ppid)) if (stat.ppid === process.pid) return true;
    return false;
  };
  return [...processes].filter(([pid, stat]) => stat.name === name && isDescendant(pid)).map(([pid]) => pid);
}

/** The parent of `pid`: a PostgreSQL backend's is the postmaster. */
export function parentOf(pid: number): number {
  const stat = statOf(pid);
  if (stat === undefined) throw new Error(`process ${pid} has gone: its parent cannot be read`);
  return stat.ppid;
}

/** CPU used so far by `pid` alone (its own threads and its ended children). */
export function processCpuMicros(pid: number): number {
  const stat = statOf(pid);
  if (stat === undefined) throw new Error(`process ${pid} has gone: its CPU time cannot be read`);
  return stat.cpuMicros;
}
