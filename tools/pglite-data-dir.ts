import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

// Its package.json is not in its exports; the workspace's one installed copy is.
const { version } = JSON.parse(readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as { version: string };
/** One initialised cluster per PGlite version, shared by every test process of the machine. */
const TEMPLATE = join(tmpdir(), `paymount-pglite-template-${version}`);

let template: Promise<string> | undefined;

/** PGlite's initdb takes 8 to 15 s on a loaded two-core machine; a copy of its result opens in about one. */
function templateDir(): Promise<string> {
  template ??= (async () => {
    if (existsSync(TEMPLATE)) return TEMPLATE;
    const building = mkdtempSync(`${TEMPLATE}-building-`);
    await (await PGlite.create(building)).close();
    try {
      renameSync(building, TEMPLATE);
    } catch {
      // Another test process made it first: theirs is as good.
      rmSync(building, { recursive: true, force: true });
    }
    return TEMPLATE;
  })();
  return template;
}

export interface PGliteDataDir {
  /** A folder holding an empty, initialised PGlite cluster: give it to `PGlite.create` or a shop's `dataDir`. */
  dir: string;
  remove(): void;
}

/** A fresh PGlite data folder for one test, in the system's temporary folder. */
export async function pgliteDataDir(): Promise<PGliteDataDir> {
  const source = await templateDir();
  const dir = mkdtempSync(join(tmpdir(), 'paymount-pglite-'));
  cpSync(source, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
