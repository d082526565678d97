import type { LockPGliteFolderOptions } from './pglite-folder-lock';

// The edge build's twin of pglite-folder-lock.ts (Workers, the Next.js edge runtime): no file system,
// so no PGlite data folder that two processes could share.

export type { LockPGliteFolderOptions };

export function lockPGliteFolder(dir: string, _options: LockPGliteFolderOptions = {}): () => void {
  throw new Error(
    `lockPGliteFolder(${JSON.stringify(dir)}): this runtime has no file system, so PGlite keeps no data folder here. ` +
      'Reach a PostgreSQL server instead (fromNeon, fromPostgresJs).',
  );
}

/** Nothing to claim: PGlite's data here is in memory or IndexedDB, which no other process opens. */
export function claimPGliteFolder(_dataDir: string | undefined): void {}
