import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endProcess, forkTypeScript, type ForkedProcess } from '../../../tools/forked-process';
import { pgliteDataDir } from '../../../tools/pglite-data-dir';
import type { FromReadmeProcess } from './support/pglite-readme-process';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const script = fileURLToPath(new URL('./support/pglite-readme-process.ts', import.meta.url));

describe('a PGlite data folder serves one process', () => {
  it("a second process opening the folder as the stores page (Drivers) does is refused, naming the first and the fix; once the first is killed (SIGKILL), a restart takes the folder", async () => {
    const folder = await pgliteDataDir();
    const started: ForkedProcess[] = [];
    const open = async () => {
      const forked = await forkTypeScript(script, { cwd: packageDir, env: { PAYMOUNT_DATA_DIR: folder.dir } }, (message: FromReadmeProcess) => message);
      started.push(forked);
      return forked;
    };
    try {
      const first = await open();
      expect(first.ready).toEqual({ kind: 'opened' });
      expect((await open()).ready).toEqual({
        kind: 'refused',
        message: `Another process (pid ${first.child.pid}) keeps its data in ${folder.dir}, and PGlite serves one process at a time. Stop that process, or use a PostgreSQL server (fromPg, fromPostgresJs) for several processes.`,
      });
      await endProcess(first, 'SIGKILL');
      expect((await open()).ready).toEqual({ kind: 'opened' });
    } finally {
      for (const forked of started) await endProcess(forked, 'SIGKILL');
      folder.remove();
    }
  // Three processes each starting PGlite: slow on a loaded machine, whatever the verdict.
  }, 180_000);
});
